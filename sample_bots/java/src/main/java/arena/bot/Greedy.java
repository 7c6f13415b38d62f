package arena.bot;

import arena.protocol.Action;
import arena.protocol.Card;
import arena.protocol.Move;
import arena.protocol.Rank;
import arena.protocol.SeatCard;
import arena.protocol.State;
import arena.protocol.Status;
import arena.protocol.Suit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The greedy sample strategy, which {@link Strategy#choose} plays: the heuristics of
 * arena/samples/greedy_bot.py, move for move.
 *
 * <ul>
 *   <li>Following: win the trick as cheaply as possible, else throw the lowest card. Void in
 *       the suit led: trump only when it matters (no trick yet this hand, or trumps to
 *       spare), else discard the lowest card of a short suit.
 *   <li>Leading: a card no one can beat in its suit, else low from the longest side suit.
 *   <li>As a dog: play the card where it surely wins (the top trump left), or where it wins
 *       now with no one left to play; otherwise knock. A blind dog plays when it is last to
 *       act on a weak trick.
 *   <li>Trumps: the suit with the most length and high cards.
 *   <li>Declarations: rainbow when the hand is weak (it voids the hand), always no_picture.
 * </ul>
 *
 * <p>It keeps no memory: each request's state is its whole input, and it uses no randomness,
 * so the same position always gets the same move. Where several cards tie, it breaks the tie
 * exactly as the Python bot does, so the two play identically. Each move comes with the name
 * of the rule that picked it, e.g. {@code "cheapest_winner"} (the same names in every starter
 * kit). Read it for ideas, call it as a fallback, or ignore it.
 */
public final class Greedy {

    /** A greedy move and the name of the rule that picked it. */
    public record Choice(Move move, String rule) {}

    /** High-card points: ace 4, king 3, queen 2, jack 1. */
    private static final Map<Rank, Integer> HIGH_CARD_POINTS =
            Map.of(Rank.ACE, 4, Rank.KING, 3, Rank.QUEEN, 2, Rank.JACK, 1);

    private static final Comparator<Card> BY_RANK = Comparator.comparing(Card::rank);

    private Greedy() {}

    /** The greedy move for a request whose legal moves are {@code legal} (never empty). */
    public static Choice greedy(State state, List<Move> legal, Action action) {
        switch (action) {
            case TRUMP:
                return rule(chooseTrump(state.cards()), "strongest_suit");
            case RAINBOW:
                return weakHand(state.cards())
                        ? rule(Move.DECLARE, "weak_hand")
                        : rule(Move.PASS, "strong_hand");
            case NO_PICTURE:
                // a hand without pictures is weak: have it dealt again
                return rule(Move.DECLARE, "always_declare");
            case PLAY:
            default:
                break;
        }
        if (legal.contains(Move.KNOCK) || legal.contains(Move.BLIND) || state.status() == Status.DOG) {
            return playAsDog(state, legal);
        }
        if (legal.size() == 1) {
            return rule(legal.get(0), "only_move");
        }
        List<Card> cards = Move.cards(legal);
        return state.trick().isEmpty() ? lead(state, cards) : follow(state, cards);
    }

    /** The move, with the name of the rule that picked it. */
    private static Choice rule(Move move, String name) {
        return new Choice(move, name);
    }

    /** The suit with the best length and high cards (2 a card, plus its high-card points). */
    static Suit chooseTrump(List<Card> cards) {
        Suit best = null;
        int bestStrength = -1;
        for (Suit suit : Suit.values()) {
            int strength = 0;
            for (Card card : cards) {
                if (card.suit() == suit) {
                    strength += 2 + HIGH_CARD_POINTS.getOrDefault(card.rank(), 0);
                }
            }
            // Ties go to the later suit of C, H, D, S (Python adds index / 10).
            if (strength >= bestStrength) {
                best = suit;
                bestStrength = strength;
            }
        }
        return best;
    }

    /** Few high cards: worth voiding the hand with a rainbow. */
    static boolean weakHand(List<Card> cards) {
        int points = 0;
        for (Card card : cards) {
            points += HIGH_CARD_POINTS.getOrDefault(card.rank(), 0);
        }
        return points < 5;
    }

    private static Choice playAsDog(State state, List<Move> legal) {
        Suit trump = state.trump();
        List<SeatCard> trick = state.trick();
        if (legal.contains(Move.BLIND)) {
            if (!legal.contains(Move.KNOCK)) {
                return rule(Move.BLIND, "dog_must_play");
            }
            // Play the unseen card only on a weak trick (no trump, an eight or lower) when
            // nobody plays after us: then any card above it of the suit led, or a trump, wins.
            boolean weak = state.winning()
                    .map(best -> best.card().suit() != trump
                            && best.card().rank().compareTo(Rank.EIGHT) <= 0)
                    .orElse(false);
            return weak && seatsAfterMe(state) == 0
                    ? rule(Move.BLIND, "dog_blind_gamble")
                    : rule(Move.KNOCK, "dog_knock");
        }
        Card card = null;
        for (Move move : legal) {
            if (move instanceof Card c) {
                card = c;
                break;
            }
        }
        if (card == null) {
            return rule(legal.get(0), "only_move");
        }
        if (!legal.contains(Move.KNOCK)) {
            return rule(card, "dog_must_play"); // the hand's last trick: a dog must play
        }
        if (card.suit() == trump && unseenHigher(card, state).isEmpty()) {
            return rule(card, "dog_top_trump"); // the top trump left: it wins wherever it is played
        }
        if (!trick.isEmpty()
                && card.beats(state.winning().orElseThrow().card(), trump)
                && seatsAfterMe(state) == 0) {
            return rule(card, "dog_wins_last");
        }
        return rule(Move.KNOCK, "dog_knock");
    }

    private static Choice lead(State state, List<Card> cards) {
        Suit trump = state.trump();
        List<Card> sides = new ArrayList<>();
        List<Card> trumps = new ArrayList<>();
        for (Card card : cards) {
            (card.suit() == trump ? trumps : sides).add(card);
        }
        List<Card> bosses = new ArrayList<>();
        for (Card card : sides) {
            if (unseenHigher(card, state).isEmpty()) {
                bosses.add(card);
            }
        }
        if (!bosses.isEmpty()) {
            return rule(highest(bosses), "lead_boss");
        }
        if (!trumps.isEmpty() && state.tricks().get(state.seat()) == 0) {
            Card top = highest(trumps);
            if (unseenHigher(top, state).isEmpty()) {
                return rule(top, "lead_top_trump"); // no trick yet: cash the top trump
            }
        }
        if (sides.isEmpty()) {
            return rule(lowest(cards), "lead_low_trump");
        }
        // The longest side suit; ties go to the suit whose letter comes last (S, H, D, C).
        Suit longest = null;
        int longestCount = 0;
        for (Suit suit : Suit.values()) {
            int count = count(sides, suit);
            if (count > longestCount
                    || (count == longestCount && count > 0 && suit.symbol() > longest.symbol())) {
                longest = suit;
                longestCount = count;
            }
        }
        return rule(lowest(ofSuit(sides, longest)), "lead_longest_suit");
    }

    private static Choice follow(State state, List<Card> cards) {
        Suit trump = state.trump();
        Suit led = state.trick().get(0).card().suit();
        Card best = state.winning().orElseThrow().card();
        List<Card> winners = new ArrayList<>();
        for (Card card : cards) {
            if (card.beats(best, trump)) {
                winners.add(card);
            }
        }
        if (count(cards, led) > 0) { // following suit
            return winners.isEmpty()
                    ? rule(lowest(cards), "follow_low")
                    : rule(lowest(winners), "cheapest_winner");
        }
        List<Card> trumpWinners = ofSuit(winners, trump);
        int myTrumps = count(cards, trump);
        int taken = 0;
        for (int tricks : state.tricks()) {
            taken += tricks;
        }
        int tricksLeft = state.handSize() - taken;
        boolean matters = state.tricks().get(state.seat()) == 0 || myTrumps * 2 >= Math.max(1, tricksLeft);
        if (!trumpWinners.isEmpty() && matters) {
            return rule(lowest(trumpWinners), "ruff");
        }
        List<Card> discards = new ArrayList<>();
        for (Card card : cards) {
            if (card.suit() != trump) {
                discards.add(card);
            }
        }
        if (discards.isEmpty()) {
            discards = cards;
        }
        // The shortest suit among the discards; ties go to the letter first in the
        // alphabet (C, D, H, S), as Python's min over sorted letters does.
        Suit shortest = null;
        for (Suit suit : Suit.values()) {
            int count = count(discards, suit);
            if (count == 0) {
                continue;
            }
            int bestCount = shortest == null ? Integer.MAX_VALUE : count(discards, shortest);
            if (count < bestCount || (count == bestCount && suit.symbol() < shortest.symbol())) {
                shortest = suit;
            }
        }
        return rule(lowest(ofSuit(discards, shortest)), "discard_short_suit");
    }

    /** Cards of the suit of {@code card}, above it, neither played this hand nor held by this seat. */
    static List<Card> unseenHigher(Card card, State state) {
        Set<Card> gone = new HashSet<>(state.cards());
        for (SeatCard play : state.played()) {
            gone.add(play.card());
        }
        List<Card> higher = new ArrayList<>();
        Rank[] ranks = Rank.values();
        for (int r = card.rank().ordinal() + 1; r < ranks.length; r++) {
            Card above = new Card(ranks[r], card.suit());
            if (!gone.contains(above)) {
                higher.add(above);
            }
        }
        return higher;
    }

    /**
     * How many seats still play to this trick after this one: active seats, and dogs that
     * have not played their card this hand, up to the leader.
     */
    static int seatsAfterMe(State state) {
        int seats = state.players();
        Set<Integer> playedBy = new HashSet<>();
        for (SeatCard play : state.played()) {
            playedBy.add(play.seat());
        }
        int count = 0;
        for (int seat = (state.seat() + 1) % seats; seat != state.leader(); seat = (seat + 1) % seats) {
            Status status = state.statuses().get(seat);
            if (status == Status.ACTIVE || (status == Status.DOG && !playedBy.contains(seat))) {
                count++;
            }
        }
        return count;
    }

    // Small list helpers. On ties, highest and lowest keep the first card in list order,
    // as Python's max and min do.

    private static Card highest(List<Card> cards) {
        Card best = cards.get(0);
        for (Card card : cards) {
            if (BY_RANK.compare(card, best) > 0) {
                best = card;
            }
        }
        return best;
    }

    private static Card lowest(List<Card> cards) {
        Card best = cards.get(0);
        for (Card card : cards) {
            if (BY_RANK.compare(card, best) < 0) {
                best = card;
            }
        }
        return best;
    }

    private static int count(List<Card> cards, Suit suit) {
        int count = 0;
        for (Card card : cards) {
            if (card.suit() == suit) {
                count++;
            }
        }
        return count;
    }

    private static List<Card> ofSuit(List<Card> cards, Suit suit) {
        List<Card> result = new ArrayList<>();
        for (Card card : cards) {
            if (card.suit() == suit) {
                result.add(card);
            }
        }
        return result;
    }
}
