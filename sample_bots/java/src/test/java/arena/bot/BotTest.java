package arena.bot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import arena.protocol.Card;
import arena.protocol.Message;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The session loop: one reply per hello and request, the greedy move with its rule, nothing after bye. */
class BotTest {

    @Test
    void aSessionIsAnsweredLineForLineUntilBye() throws Throwable {
        String input = String.join("\n",
                "{\"type\": \"hello\", \"protocol\": 1, \"limits\": {\"startup_ms\": 10000, \"move_ms\": 1000, \"bank_ms\": 10000}}",
                "not JSON",
                "{\"type\": \"event\", \"event\": \"play\", \"seat\": 2, \"card\": \"4H\"}",
                (String) GreedyTest.positions().toList().get(2).get()[0],
                "{\"type\": \"bye\"}",
                "{\"type\": \"hello\", \"protocol\": 1, \"limits\": {\"startup_ms\": 1, \"move_ms\": 1, \"bank_ms\": 1}}",
                "");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String log = stderrOf(() -> new Bot(new Strategy(0), new Message.Ready("test-bot", "1.0", null))
                .run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out));
        assertEquals(List.of(
                        "{\"type\":\"ready\",\"name\":\"test-bot\",\"version\":\"1.0\"}",
                        "{\"type\":\"move\",\"id\":46,\"move\":\"TH\",\"info\":{\"rule\":\"cheapest_winner\"}}"),
                out.toString(StandardCharsets.UTF_8).lines().toList());
        assertEquals(List.of("bot: ignoring a line that is not JSON: not JSON"), log.lines().toList());
    }

    /** A record Jackson cannot write: reading its field throws. */
    record Unwritable(int value) {
        @Override
        public int value() {
            throw new IllegalStateException("no value");
        }
    }

    @Test
    void aDecisionWithoutInfoOrWithAnUnwritableOneSendsNone() throws Throwable {
        Card ace = Card.parse("AS");
        assertNull(Decision.of(ace).info());
        String log = stderrOf(() -> assertNull(Decision.of(ace, new Unwritable(1)).info()));
        assertTrue(log.startsWith("bot: info is not JSON (no value"), log);
        assertEquals("[1,\"x\"]", Decision.of(ace, List.of(1, "x")).info().toString());
    }

    /** What {@code body} writes to stderr, the bot's log (kept off the test's output). */
    private static String stderrOf(Executable body) throws Throwable {
        PrintStream stderr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            body.execute();
        } finally {
            System.setErr(stderr);
        }
        return log.toString(StandardCharsets.UTF_8);
    }
}
