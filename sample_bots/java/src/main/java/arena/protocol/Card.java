package arena.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A card, written rank then suit: {@code "TD"} is the ten of diamonds. Also a move (playing
 * it). Cards sort in the order of {@code legal}: by rank, then by suit C, H, D, S.
 */
public record Card(Rank rank, Suit suit) implements Move, Comparable<Card> {

    /** The 52 cards, in the order of {@code legal}. */
    public static final List<Card> DECK;

    static {
        List<Card> deck = new ArrayList<>(52);
        for (Rank rank : Rank.values()) {
            for (Suit suit : Suit.values()) {
                deck.add(new Card(rank, suit));
            }
        }
        DECK = Collections.unmodifiableList(deck);
    }

    public Card {
        Objects.requireNonNull(rank, "rank");
        Objects.requireNonNull(suit, "suit");
    }

    /** The card written {@code text}, e.g. {@code "TD"}; throws IllegalArgumentException otherwise. */
    @JsonCreator
    public static Card parse(String text) {
        if (text.length() != 2) {
            throw new IllegalArgumentException("not a card: \"" + text + "\"");
        }
        return new Card(Rank.of(text.charAt(0)), Suit.of(text.charAt(1)));
    }

    /**
     * Whether this card would take a trick whose best card so far is {@code best}: a higher
     * card of the same suit, or a trump over a non-trump. (A card of another suit that is not
     * a trump never wins.)
     */
    public boolean beats(Card best, Suit trump) {
        if (suit == best.suit) {
            return rank.compareTo(best.rank) > 0;
        }
        return suit == trump;
    }

    @JsonValue
    @Override
    public String wire() {
        return "" + rank.symbol() + suit.symbol();
    }

    @Override
    public String toString() {
        return wire();
    }

    @Override
    public int compareTo(Card other) {
        int byRank = rank.compareTo(other.rank);
        return byRank != 0 ? byRank : suit.compareTo(other.suit);
    }
}
