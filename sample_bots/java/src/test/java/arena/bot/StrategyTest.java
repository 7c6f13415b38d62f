package arena.bot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import arena.protocol.Message;
import arena.protocol.Protocol;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The student's entry point: {@link Strategy#choose} gives a legal move and its rule as info. */
class StrategyTest {

    private static final String GAME_START = "{\"type\": \"game_start\", \"game\": \"g3-2\", \"seat\": 1,"
            + " \"players\": [\"a\", \"b\", \"c\"], \"rules\": {\"players\": 3, \"dog_life\": \"standard\","
            + " \"dog_first_hand_only\": false, \"blind_dog\": false, \"upside_dog\": true, \"rainbow\": false,"
            + " \"no_picture\": false, \"trumps_broken\": false, \"eliminated_deals\": false,"
            + " \"sweep_wins\": false, \"tie_break\": \"cut\"}}";

    @ParameterizedTest
    @MethodSource("arena.bot.GreedyTest#positions")
    void chooseSendsTheGreedyMoveWithItsRuleAsInfo(String line, String move, String rule) throws Exception {
        Message.Request request = (Message.Request) Protocol.read(line);
        Decision decision = new Strategy(0).choose(request.state(), request.legal(), request);
        assertTrue(request.legal().contains(decision.move()), decision.toString());
        assertEquals(move, decision.move().wire());
        assertEquals("{\"rule\":\"" + rule + "\"}", decision.info().toString());
    }

    @Test
    void epsOnePlaysRandomLegalMovesDrawnFromTheGameAndSeat() throws Exception {
        List<String> first = randomGame();
        assertEquals(first, randomGame(), "the same game and seat must draw the same moves");
        assertTrue(first.stream().distinct().count() > 1, "20 draws, always the same move: " + first);
    }

    /** The moves and infos of a strategy with eps 1, asked the five positions four times each. */
    private static List<String> randomGame() throws Exception {
        Strategy strategy = new Strategy(1);
        strategy.observe(Protocol.read(GAME_START));
        List<String> moves = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (var position : GreedyTest.positions().toList()) {
                var request = (Message.Request) Protocol.read((String) position.get()[0]);
                Decision decision = strategy.choose(request.state(), request.legal(), request);
                assertTrue(request.legal().contains(decision.move()), decision.toString());
                assertEquals("{\"rule\":\"random\"}", decision.info().toString());
                moves.add(decision.move().wire());
            }
        }
        return moves;
    }
}
