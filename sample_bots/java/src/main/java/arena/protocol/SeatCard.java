package arena.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/** {@code [seat, card]}: who played (or drew, in a cut) which card; a two-element JSON array. */
public record SeatCard(int seat, Card card) {
    public SeatCard {
        Objects.requireNonNull(card, "card");
    }

    /** Reads {@code [seat, card]}; anything else (a third element included) is an error. */
    @JsonCreator
    static SeatCard fromJson(JsonNode pair) {
        if (!Turn.isPair(pair)) {
            throw new IllegalArgumentException("expected [seat, card], not " + pair);
        }
        return new SeatCard(pair.get(0).intValue(), Card.parse(pair.get(1).textValue()));
    }

    @JsonValue
    List<Object> toJson() {
        return List.of(seat, card);
    }
}
