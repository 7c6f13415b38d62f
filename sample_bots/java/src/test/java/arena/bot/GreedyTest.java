package arena.bot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import arena.protocol.Message;
import arena.protocol.Protocol;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The greedy rules on the five fixed positions of the Go kit's bot_test.go: same moves, same rules. */
class GreedyTest {

    static Stream<Arguments> positions() {
        return Stream.of(
                // Naming trumps with the jack of clubs alone.
                Arguments.of("""
                        {"type": "request", "id": 86, "action": "trump", "legal": ["C", "H", "D", "S"], "state": {"seat": 2, "hand": 7, "hand_size": 1, "dealer": 1, "trump": null, "cards": ["JC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}""",
                        "C", "strongest_suit"),
                // A weak hand declares its rainbow.
                Arguments.of("""
                        {"type": "request", "id": 54, "action": "rainbow", "legal": ["pass", "declare"], "state": {"seat": 1, "hand": 4, "hand_size": 4, "dealer": 1, "trump": "C", "cards": ["3H", "4S", "TD", "QC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "active", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}""",
                        "declare", "weak_hand"),
                // Following hearts: the ten wins the four cheaply.
                Arguments.of("""
                        {"type": "request", "id": 46, "action": "play", "legal": ["2H", "TH"], "state": {"seat": 0, "hand": 3, "hand_size": 5, "dealer": 2, "trump": "D", "cards": ["2H", "5S", "TH", "AS"], "leader": 2, "trick": [[2, "4H"]], "played": [[0, "3C"], [1, "6C"], [2, "9C"], [2, "4H"]], "tricks": [0, 0, 1], "statuses": ["active", "active", "active"], "turn_up": null, "history": [{"leader": 0, "moves": [[0, "3C"], [1, "6C"], [2, "9C"]], "winner": 2}], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 9340}}""",
                        "TH", "cheapest_winner"),
                // A dog leading with the queen of trumps while the ace and king are out: knock.
                Arguments.of("""
                        {"type": "request", "id": 81, "action": "play", "legal": ["knock", "QD"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 0, "trump": "D", "cards": ["QD"], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["active", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": [], "dog_cards": {"1": "QD"}}, "time": {"move_ms": 1000, "bank_ms": 10000}}""",
                        "knock", "dog_knock"),
                // A blind dog leading: knock.
                Arguments.of("""
                        {"type": "request", "id": 81, "action": "play", "legal": ["knock", "blind"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 2, "trump": "D", "cards": [], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [1], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}""",
                        "knock", "dog_knock"));
    }

    @ParameterizedTest
    @MethodSource("positions")
    void theGreedyMoveAndItsRule(String line, String move, String rule) throws Exception {
        Message.Request request = (Message.Request) Protocol.read(line);
        Greedy.Choice choice = Greedy.greedy(request.state(), request.legal(), request.action());
        assertEquals(move, choice.move().wire());
        assertEquals(rule, choice.rule());
    }
}
