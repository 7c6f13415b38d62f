package arena.bot;

import arena.protocol.Message;
import arena.protocol.Protocol;
import arena.protocol.Protocol.ProtocolException;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The bot program: {@code java -jar target/java-greedy.jar} plays a session on stdin/stdout
 * with {@link GreedyStrategy}; with the single argument {@code --roundtrip} it instead reads
 * every line of stdin into the typed model and prints it back (a check of the model).
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) throws IOException {
        // Replies go to the real stdout only; a stray System.out.println in a strategy goes
        // to stderr instead of corrupting the protocol.
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        if (args.length == 1 && args[0].equals("--roundtrip")) {
            System.exit(roundTrip(stdout));
        }
        if (args.length != 0) {
            Bot.log("usage: java -jar java-greedy.jar [--roundtrip]");
            System.exit(2);
        }
        Bot bot = new Bot(new GreedyStrategy(), new Message.Ready("java-greedy", "1.0", null));
        bot.run(System.in, stdout);
    }

    /**
     * Parses each line of stdin into its message record and writes the record back as one
     * line, in order. Returns 0 at the end of input, 1 at the first line that does not parse.
     */
    static int roundTrip(OutputStream stdout) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(stdout, false, StandardCharsets.UTF_8);
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
            number++;
            try {
                out.print(Protocol.write(Protocol.read(line)) + "\n");
            } catch (ProtocolException e) {
                out.flush();
                Bot.log("roundtrip: line " + number + ": " + e.getMessage());
                return 1;
            }
        }
        out.flush();
        return 0;
    }
}
