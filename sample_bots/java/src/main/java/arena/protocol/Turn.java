package arena.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * {@code [seat, card or "knock"]}: one turn of a completed trick (see {@link CompletedTrick}),
 * a two-element JSON array. {@code move} is a {@link Card} or {@link Move#KNOCK}.
 */
public record Turn(int seat, Move move) {
    public Turn {
        Objects.requireNonNull(move, "move");
        if (!(move instanceof Card) && move != Move.KNOCK) {
            throw new IllegalArgumentException("a turn is a card or \"knock\", not \"" + move + "\"");
        }
    }

    /** Whether the seat knocked (a dog letting its turn go by). */
    public boolean knocked() {
        return move == Move.KNOCK;
    }

    /** Reads {@code [seat, card or "knock"]}; anything else (a third element included) is an error. */
    @JsonCreator
    static Turn fromJson(JsonNode pair) {
        if (!isPair(pair)) {
            throw new IllegalArgumentException("expected [seat, card or \"knock\"], not " + pair);
        }
        return new Turn(pair.get(0).intValue(), Move.parse(pair.get(1).textValue()));
    }

    @JsonValue
    List<Object> toJson() {
        return List.of(seat, move);
    }

    /** Whether {@code node} is {@code [int, string]}. */
    static boolean isPair(JsonNode node) {
        return node.isArray() && node.size() == 2
                && node.get(0).isIntegralNumber() && node.get(0).canConvertToInt()
                && node.get(1).isTextual();
    }
}
