package arena.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A suit, written {@code "C"}, {@code "H"}, {@code "D"} or {@code "S"}. Also a move (naming
 * trumps). The declaration order is both the order of {@code legal} (C, H, D, S) and, read
 * upwards, the strength order of a cut (S > D > H > C).
 */
public enum Suit implements Move {
    CLUBS('C'), HEARTS('H'), DIAMONDS('D'), SPADES('S');

    private final char symbol;

    Suit(char symbol) {
        this.symbol = symbol;
    }

    /** The suit's letter. */
    public char symbol() {
        return symbol;
    }

    /** The suit written {@code symbol}. */
    public static Suit of(char symbol) {
        for (Suit suit : values()) {
            if (suit.symbol == symbol) {
                return suit;
            }
        }
        throw new IllegalArgumentException("not a suit: '" + symbol + "'");
    }

    /** The suit written {@code text} ({@code "S"}...). */
    @JsonCreator
    public static Suit parse(String text) {
        if (text.length() != 1) {
            throw new IllegalArgumentException("not a suit: \"" + text + "\"");
        }
        return of(text.charAt(0));
    }

    @JsonValue
    @Override
    public String wire() {
        return String.valueOf(symbol);
    }

    @Override
    public String toString() {
        return wire();
    }
}
