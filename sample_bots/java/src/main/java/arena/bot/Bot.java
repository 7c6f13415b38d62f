package arena.bot;

import arena.protocol.Message;
import arena.protocol.Move;
import arena.protocol.Protocol;
import arena.protocol.Protocol.ProtocolException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Plays a whole session with a {@link Strategy}: reads the referee's lines from stdin, answers
 * {@code hello} with {@code ready} and each {@code request} with a {@code move}, flushing each
 * reply at once, shows every other message to the strategy, and returns on {@code bye} or at
 * the end of input (so the process exits with status 0).
 */
public final class Bot {

    /** The largest info the arena keeps as sent (bytes of compact JSON); larger: its size only. */
    private static final int MAX_INFO_BYTES = 4096;

    private final Strategy strategy;
    private final Message.Ready ready;
    /** Whether an info over {@link #MAX_INFO_BYTES} was logged (once per session). */
    private boolean warnedBigInfo;

    public Bot(Strategy strategy, Message.Ready ready) {
        this.strategy = strategy;
        this.ready = ready;
    }

    /** Writes one line to stderr, the bot's log: the referee keeps it and never reads it. */
    public static void log(String line) {
        System.err.println(line);
        System.err.flush();
    }

    /**
     * A random generator for one game and seat: the same game gets the same numbers, whatever
     * the process played before. The seed is FNV-1a of {@code "<game>/<seat>"}, the hash the
     * C and JavaScript sample bots use. {@link Strategy#observe} calls it on
     * {@code game_start}.
     */
    public static Random randomFor(String game, int seat) {
        int hash = 0x811c9dc5;
        for (byte b : (game + "/" + seat).getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return new Random(Integer.toUnsignedLong(hash));
    }

    /**
     * Reads and writes a sample message of each kind, and plays the sample requests through the
     * greedy rules a few times, so that the JVM has loaded Jackson and compiled the kit before
     * the first real move: a cold first move takes hundreds of milliseconds more. Call it before
     * {@link #run}, while the referee's {@code hello} is on its way: it then counts against
     * {@code startup_ms}, not the first move's time. Not the student's {@code choose}: one that
     * thinks for its whole budget on each sample would overrun {@code startup_ms}, and what it
     * saw would be no real game.
     */
    public static void warmUp() {
        List<Message> samples = Protocol.warmUp();
        for (int round = 0; round < 20; round++) {
            for (Message message : samples) {
                if (message instanceof Message.Request request) {
                    Greedy.greedy(request.state(), request.legal(), request.action());
                }
            }
        }
    }

    /** Plays until {@code bye} or the end of {@code in}, answering on {@code out}. */
    public void run(InputStream in, OutputStream out) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        PrintStream replies = new PrintStream(out, false, StandardCharsets.UTF_8);
        String line;
        while ((line = reader.readLine()) != null) { // one message per line
            if (line.isBlank()) {
                continue;
            }
            JsonNode tree;
            try {
                tree = Protocol.tree(line);
            } catch (ProtocolException e) {
                log("bot: ignoring a line that is not JSON: " + abbreviate(line));
                continue;
            }
            String type = Protocol.typeOf(tree);
            if ("bye".equals(type)) { // the session is over: exit with status 0
                return;
            }
            if (!"hello".equals(type) && !"request".equals(type)) {
                observe(tree, type);
                continue;
            }
            Message reply = "hello".equals(type) ? ready : answer(tree);
            if (reply != null) {
                replies.print(Protocol.write(reply) + "\n");
                replies.flush(); // an unflushed reply is a late reply
                if (replies.checkError()) {
                    return; // the referee closed our stdout: nobody is listening any more
                }
            }
        }
    }

    /** Shows a message that needs no answer to the strategy; skips types this version does not know. */
    private void observe(JsonNode tree, String type) {
        Message message;
        try {
            message = Protocol.read(tree);
        } catch (ProtocolException e) {
            if (!e.unknownType()) { // a later version's new message: ignore it quietly
                log("bot: " + e.getMessage());
            }
            return;
        }
        try {
            strategy.observe(message);
        } catch (RuntimeException e) {
            log("bot: observe() raised " + e);
        }
    }

    /**
     * The move for a request, with the strategy's {@code info} when it gave one. Never fails:
     * when the request does not parse, or the strategy throws or returns a move that is not
     * legal, it logs why and plays the first legal move without info (as the arena would for
     * a faulted seat). Only a request with no id or no legal move gets no answer, since none
     * could be right.
     */
    private Message answer(JsonNode tree) {
        Message.Request request;
        try {
            request = (Message.Request) Protocol.read(tree);
        } catch (ProtocolException e) {
            log("bot: " + e.getMessage());
            JsonNode id = tree.get("id");
            JsonNode legal = tree.get("legal");
            if (id == null || !id.canConvertToLong() || legal == null || !legal.isArray() || legal.isEmpty()) {
                log("bot: no id or no legal move, cannot answer");
                return null;
            }
            try {
                return new Message.MoveReply(id.asLong(), Move.parse(legal.get(0).asText()));
            } catch (IllegalArgumentException unknown) {
                log("bot: cannot answer: " + unknown.getMessage());
                return null;
            }
        }
        List<Move> legal = request.legal();
        Decision decision;
        try {
            decision = strategy.choose(request.state(), legal, request);
        } catch (RuntimeException e) {
            log("bot: choose() raised " + e + "; playing " + legal.get(0));
            e.printStackTrace();
            decision = Decision.of(legal.get(0));
        }
        if (decision == null || !legal.contains(decision.move())) {
            Move move = decision == null ? null : decision.move();
            log("bot: choose() returned " + move + ", not in " + legal + "; playing " + legal.get(0));
            decision = Decision.of(legal.get(0));
        }
        JsonNode info = decision.info();
        if (info == null || info.isNull() || info.isMissingNode()) {
            return new Message.MoveReply(request.id(), decision.move()); // no info key, never null
        }
        if (!warnedBigInfo) {
            int bytes = info.toString().getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_INFO_BYTES) {
                warnedBigInfo = true;
                log("bot: an info of " + bytes + " bytes: the arena keeps only its size (at most "
                        + MAX_INFO_BYTES + ")");
            }
        }
        return new Message.MoveReply(request.id(), decision.move(), info);
    }

    private static String abbreviate(String line) {
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }
}
