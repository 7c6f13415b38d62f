package arena.bot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import arena.protocol.Protocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The typed model against the arena's round-trip fixture: every message, read and written back. */
class RoundTripTest {

    /** Maven runs the tests in the kit's folder, sample_bots/java in the arena's repository. */
    private static final Path KIT = Path.of("").toAbsolutePath();

    @Test
    void everyLineOfTheFixtureIsWrittenBackAsTheSameJson() throws Exception {
        // A copy made by `arena new-bot` lives elsewhere, without the arena's protocol folder
        // (the arena's own suite round-trips every kit there); in the repository the fixture
        // must be found.
        assumeTrue(KIT.getParent().getFileName().toString().equals("sample_bots"),
                "not in the arena's repository: no protocol/examples/roundtrip.jsonl to read");
        Path fixture = KIT.resolve("../../protocol/examples/roundtrip.jsonl").normalize();
        assertTrue(Files.isRegularFile(fixture), fixture + " is missing");
        List<String> lines = Files.readAllLines(fixture);
        assertFalse(lines.isEmpty(), fixture + " is empty");
        for (String line : lines) {
            String back = Protocol.write(Protocol.read(line));
            assertEquals(Protocol.MAPPER.readTree(line), Protocol.MAPPER.readTree(back), line);
        }
    }
}
