package arena.protocol;

/** A card's rank, from two up to ace (aces high); {@code ordinal()} is 0 for a two. */
public enum Rank {
    TWO('2'), THREE('3'), FOUR('4'), FIVE('5'), SIX('6'), SEVEN('7'), EIGHT('8'),
    NINE('9'), TEN('T'), JACK('J'), QUEEN('Q'), KING('K'), ACE('A');

    private final char symbol;

    Rank(char symbol) {
        this.symbol = symbol;
    }

    /** The rank's character on the wire: {@code '2'}..{@code '9'}, {@code 'T'}, {@code 'J'}, {@code 'Q'}, {@code 'K'}, {@code 'A'}. */
    public char symbol() {
        return symbol;
    }

    /** The rank written {@code symbol}. */
    public static Rank of(char symbol) {
        for (Rank rank : values()) {
            if (rank.symbol == symbol) {
                return rank;
            }
        }
        throw new IllegalArgumentException("not a rank: '" + symbol + "'");
    }
}
