package arena.protocol;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A request's {@code state}: everything this seat may know (see "The state of a request" in
 * protocol/README.md), plus helpers computed from it.
 *
 * @param seat     this seat
 * @param hand     the hand number, 1..7
 * @param handSize cards dealt to each active seat this hand
 * @param dealer   who dealt this hand
 * @param trump    trumps; {@code null} only while trumps are being named
 * @param cards    the cards this seat holds ({@code []} for a blind dog)
 * @param leader   the seat leading the current trick
 * @param trick    the current trick so far
 * @param played   every card played this hand, in order, the current trick's included
 * @param tricks   tricks taken this hand, per seat
 * @param statuses each seat's status this hand (as dealt)
 * @param turnUp   the card turned up for trumps on hand 1 (out of play), else {@code null}
 * @param dogCards face-up dog cards by seat ({@code upside_dog}), {@code null} when absent
 * @param history  the completed tricks of this hand, in order
 * @param blind    the seats playing a blind dog this hand
 * @param knocked  the seats that knocked in the trick in progress; this arena always sends it,
 *                 another v1 referee may not ({@code null} then: see {@link #knockedSeats()})
 */
public record State(
        @Required int seat,
        @Required int hand,
        @Required int handSize,
        @Required int dealer,
        @RequiredNullable Suit trump,
        @Required List<Card> cards,
        @Required int leader,
        @Required List<SeatCard> trick,
        @Required List<SeatCard> played,
        @Required List<Integer> tricks,
        @Required List<Status> statuses,
        @RequiredNullable Card turnUp,
        @MayBeAbsent Map<Integer, Card> dogCards,
        @Required List<CompletedTrick> history,
        @Required List<Integer> blind,
        @MayBeAbsent List<Integer> knocked) {

    /** The number of seats in the game. */
    public int players() {
        return statuses.size();
    }

    /** This seat's status this hand. */
    public Status status() {
        return statuses.get(seat);
    }

    /** The seats that knocked in the trick in progress ({@code []} when the referee left it out). */
    public List<Integer> knockedSeats() {
        return knocked == null ? List.of() : knocked;
    }

    /** The face-up dog cards by seat ({@code {}} when there are none). */
    public Map<Integer, Card> dogCardsOrEmpty() {
        return dogCards == null ? Map.of() : dogCards;
    }

    /** Who is winning the trick in progress, with which card; empty before the lead. */
    public Optional<SeatCard> winning() {
        return winning(trick, trump);
    }

    /**
     * Who is winning a trick (a list of {@code [seat, card]} in play order) given trumps: the
     * highest trump, else the highest card of the suit led. Empty for an empty trick.
     */
    public static Optional<SeatCard> winning(List<SeatCard> trick, Suit trump) {
        SeatCard best = null;
        for (SeatCard play : trick) {
            if (best == null || play.card().beats(best.card(), trump)) {
                best = play;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The cards this seat has not seen, in the order of {@code legal}: the 52 less its own
     * cards, the cards played this hand, the face-up dog cards and the turned-up card. The
     * other seats' hidden cards are among them (and so is the undealt rest of the deck).
     */
    public List<Card> unseen() {
        Set<Card> seen = new HashSet<>(cards);
        for (SeatCard play : played) {
            seen.add(play.card());
        }
        seen.addAll(dogCardsOrEmpty().values());
        if (turnUp != null) {
            seen.add(turnUp);
        }
        List<Card> unseen = new ArrayList<>(52 - seen.size());
        for (Card card : Card.DECK) {
            if (!seen.contains(card)) {
                unseen.add(card);
            }
        }
        return unseen;
    }
}
