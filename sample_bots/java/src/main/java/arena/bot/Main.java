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
 * with a {@link Strategy}; {@code --eps E} makes it play a random legal move with probability
 * E (0 to 1); with the single argument {@code --roundtrip} it instead reads every line of
 * stdin into the typed model and prints it back (a check of the model).
 */
public final class Main {

    private static final String USAGE = "usage: java -jar java-greedy.jar [--eps E | --roundtrip]";

    private Main() {}

    public static void main(String[] args) throws IOException {
        // Replies go to the real stdout only; a stray System.out.println in a strategy goes
        // to stderr instead of corrupting the protocol.
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        if (args.length == 1 && args[0].equals("--roundtrip")) {
            System.exit(roundTrip(stdout));
        }
        double eps = eps(args);
        Bot.warmUp();
        Bot bot = new Bot(new Strategy(eps), new Message.Ready("java-greedy", "1.0", null));
        bot.run(System.in, stdout);
    }

    /**
     * The share of random moves the arguments ask for: 0 without any, E for {@code --eps E}
     * with E from 0 to 1. Anything else is a usage error: one line on stderr, exit status 2.
     */
    private static double eps(String[] args) {
        if (args.length == 0) {
            return 0;
        }
        if (args.length != 2 || !args[0].equals("--eps")) {
            Bot.log(USAGE);
            System.exit(2);
        }
        double eps;
        try {
            eps = Double.parseDouble(args[1]);
        } catch (NumberFormatException e) {
            eps = Double.NaN; // not a number: refused below with the rest
        }
        if (!(eps >= 0 && eps <= 1)) { // NaN included
            Bot.log(USAGE + ": --eps takes a share from 0 to 1, not \"" + args[1] + "\"");
            System.exit(2);
        }
        return eps;
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
