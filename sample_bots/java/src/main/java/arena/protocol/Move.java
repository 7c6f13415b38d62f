package arena.protocol;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * A move, as listed in a request's {@code legal} and sent back in a {@code move} reply:
 * a {@link Card} to play, a {@link Suit} to name trumps, or one of the {@link Word}s
 * {@code "knock"}, {@code "blind"}, {@code "pass"}, {@code "declare"}.
 *
 * <p>Tell them apart with {@code instanceof}: {@code if (move instanceof Card card) ...}.
 */
public sealed interface Move permits Card, Suit, Move.Word {

    /** A dog lets its turn go by. */
    Word KNOCK = Word.KNOCK;
    /** A blind dog plays the card it may not look at. */
    Word BLIND = Word.BLIND;
    /** Declines a declaration ({@code rainbow}, {@code no_picture}). */
    Word PASS = Word.PASS;
    /** Makes a declaration. */
    Word DECLARE = Word.DECLARE;

    /** The moves that are words. */
    enum Word implements Move {
        KNOCK("knock"), BLIND("blind"), PASS("pass"), DECLARE("declare");

        private final String wire;

        Word(String wire) {
            this.wire = wire;
        }

        @JsonValue
        @Override
        public String wire() {
            return wire;
        }

        @Override
        public String toString() {
            return wire;
        }
    }

    /** The cards among {@code moves}, in their order (a request's legal cards). */
    static List<Card> cards(List<? extends Move> moves) {
        List<Card> cards = new ArrayList<>(moves.size());
        for (Move move : moves) {
            if (move instanceof Card card) {
                cards.add(card);
            }
        }
        return cards;
    }

    /** The move's string on the wire: {@code "TD"}, {@code "S"}, {@code "knock"}... */
    String wire();

    /** The move written {@code text}; throws IllegalArgumentException for anything else. */
    static Move parse(String text) {
        for (Word word : Word.values()) {
            if (word.wire.equals(text)) {
                return word;
            }
        }
        return switch (text.length()) {
            case 1 -> Suit.parse(text);
            case 2 -> Card.parse(text);
            default -> throw new IllegalArgumentException("not a move: \"" + text + "\"");
        };
    }
}
