package arena.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Every message of protocol v1, one record per {@code type} (see protocol/README.md).
 *
 * <p>The referee sends {@link Hello}, {@link GameStart}, {@link HandStart}, the {@link Event}s,
 * {@link Request}, {@link ErrorMessage}, {@link HandEnd}, {@link GameEnd} and {@link Bye}; a bot
 * answers with {@link Ready} and {@link MoveReply}. {@link Protocol} reads and writes them.
 *
 * <p>Field names are the wire names in camelCase ({@code hand_size} is {@code handSize()}).
 * Each field says how it may be missing: {@link Required} (always there), {@link RequiredNullable}
 * (always there, may be {@code null}) or {@link MayBeAbsent} ({@code null} here when the
 * line did not have it). Seats are {@code int}s, request ids and times {@code long}s.
 */
public sealed interface Message {

    /** The message's {@code type} on the wire. */
    @JsonProperty("type")
    String type();

    /** A message from the referee. */
    sealed interface FromReferee extends Message {}

    /** A reply from the bot. */
    sealed interface FromBot extends Message {}

    // ----------------------------------------------------------------- from the referee

    /** Session start: answer {@link Ready} within {@code limits.startupMs}. */
    @JsonPropertyOrder({"type"})
    record Hello(@Required int protocol, @Required Limits limits) implements FromReferee {
        public String type() {
            return "hello";
        }
    }

    /** The session's time limits, in milliseconds. */
    record Limits(@Required long startupMs, @Required long moveMs, @Required long bankMs) {}

    /** A new game: its id, this bot's seat, the arena's names of the bots in seat order, the rules. */
    @JsonPropertyOrder({"type"})
    record GameStart(@Required String game, @Required int seat, @Required List<String> players,
                     @Required Rules rules) implements FromReferee {
        public String type() {
            return "game_start";
        }
    }

    /** Every rule option of the game (see the rules table in protocol/README.md). */
    record Rules(@Required int players, @Required DogLife dogLife, @Required boolean dogFirstHandOnly,
                 @Required boolean blindDog, @Required boolean upsideDog, @Required boolean rainbow,
                 @Required boolean noPicture, @Required boolean trumpsBroken,
                 @Required boolean eliminatedDeals, @Required boolean sweepWins,
                 @Required TieBreak tieBreak) {}

    /** Who gets a Dog's Life. */
    enum DogLife {
        @JsonProperty("standard") STANDARD,
        @JsonProperty("expanded") EXPANDED,
        @JsonProperty("none") NONE
    }

    /** How a tie for naming trumps is settled. */
    enum TieBreak {
        @JsonProperty("cut") CUT,
        @JsonProperty("random") RANDOM
    }

    /**
     * A deal: this seat's cards ({@code []} when it holds none or is a blind dog), the turned-up
     * card (hand 1, else {@code null}), every seat's status, and the face-up dog cards by seat
     * ({@code upside_dog}; absent when none).
     */
    @JsonPropertyOrder({"type"})
    record HandStart(@Required int hand, @Required int dealer, @Required List<Card> cards,
                     @Required int handSize, @RequiredNullable Card turnUp, @Required List<Status> statuses,
                     @MayBeAbsent Map<Integer, Card> dogCards) implements FromReferee {
        public String type() {
            return "hand_start";
        }
    }

    /** Something public happened; {@link #event()} says what. */
    @JsonPropertyOrder({"type", "event"})
    sealed interface Event extends FromReferee {
        @Override
        default String type() {
            return "event";
        }

        /** The event's kind on the wire: {@code "trump"}, {@code "play"}... */
        @JsonProperty("event")
        String event();

        /** Trumps are set: by {@code seat}, or by the turned-up card when {@code seat} is {@code null}. */
        record Trump(@Required Suit suit, @RequiredNullable Integer seat) implements Event {
            public String event() {
                return "trump";
            }
        }

        /** A card was played to the trick in progress. */
        record Play(@Required int seat, @Required Card card) implements Event {
            public String event() {
                return "play";
            }
        }

        /** A dog let its turn go by. */
        record Knock(@Required int seat) implements Event {
            public String event() {
                return "knock";
            }
        }

        /** A trick is complete: its cards in play order, and who won it. */
        record Trick(@Required int winner, @Required List<SeatCard> cards) implements Event {
            public String event() {
                return "trick";
            }
        }

        /** A seat declared, showing the cards that justify it. */
        record Declare(@Required int seat, @Required Declaration what, @Required List<Card> cards)
                implements Event {
            public String event() {
                return "declare";
            }
        }

        /** Cards were cut, to pick the first dealer or to break a tie for naming trumps. */
        record Cut(@Required CutPurpose purpose, @Required List<SeatCard> draws, @Required int winner)
                implements Event {
            public String event() {
                return "cut";
            }
        }
    }

    /** What a {@code declare} event declares. */
    enum Declaration {
        @JsonProperty("rainbow") RAINBOW,
        @JsonProperty("no_picture") NO_PICTURE
    }

    /** Why cards were cut. */
    enum CutPurpose {
        @JsonProperty("dealer") DEALER,
        @JsonProperty("trump") TRUMP
    }

    /**
     * This seat's turn: answer a {@link MoveReply} with this {@code id} and one of {@code legal}
     * within {@code time.deadlineMs()}.
     */
    @JsonPropertyOrder({"type"})
    record Request(@Required long id, @Required Action action, @Required List<Move> legal,
                   @Required State state, @Required Time time) implements FromReferee {
        public String type() {
            return "request";
        }

        /** The cards among the legal moves, in the order of {@code legal}. */
        public List<Card> legalCards() {
            return Move.cards(legal);
        }
    }

    /** The time for one move: the free allowance and what is left of this game's bank. */
    record Time(@Required long moveMs, @Required long bankMs) {
        /** The hard deadline of this move, counted from when the request was written. */
        public long deadlineMs() {
            return moveMs + bankMs;
        }

        /**
         * A safe thinking time for this move: 80% of the free allowance (the rest covers the
         * pipe, JSON and a garbage-collector pause) plus 5% of what is left of the bank. Taking
         * a fixed share of what is left never empties the bank, however many moves a game has.
         */
        public long budgetMs() {
            return moveMs * 4 / 5 + bankMs / 20;
        }
    }

    /**
     * This bot's last reply was refused and it has lost the game; the referee stops the
     * process next. {@code id} is the refused request's, absent when not about a request.
     */
    @JsonPropertyOrder({"type"})
    record ErrorMessage(@MayBeAbsent Long id, @Required String message) implements FromReferee {
        public String type() {
            return "error";
        }
    }

    /** A hand is over: tricks per seat, statuses after it, who names trumps next ({@code null}: game over). */
    @JsonPropertyOrder({"type"})
    record HandEnd(@Required int hand, @Required List<Integer> tricks, @Required List<Status> statuses,
                   @RequiredNullable Integer chooser) implements FromReferee {
        public String type() {
            return "hand_end";
        }
    }

    /** A game is over: each seat's place (1 = winner), the lowest seat placed 1st, faults by seat. */
    @JsonPropertyOrder({"type"})
    record GameEnd(@Required String game, @Required List<Integer> placements, @Required int winner,
                   @Required Map<Integer, Fault> faults) implements FromReferee {
        public String type() {
            return "game_end";
        }
    }

    /** Why a seat forfeited a game. */
    record Fault(@Required FaultKind kind, @Required String detail) {}

    /** The kinds of fault. */
    enum FaultKind {
        @JsonProperty("timeout") TIMEOUT,
        @JsonProperty("crash") CRASH,
        @JsonProperty("illegal") ILLEGAL,
        @JsonProperty("malformed") MALFORMED
    }

    /** The session is over: exit with status 0. */
    @JsonPropertyOrder({"type"})
    record Bye() implements FromReferee {
        public String type() {
            return "bye";
        }
    }

    // ------------------------------------------------------------------------ from the bot

    /** The answer to {@link Hello}: the bot's name, and optionally a version and an author. */
    @JsonPropertyOrder({"type"})
    record Ready(@Required String name, @MayBeAbsent String version, @MayBeAbsent String author)
            implements FromBot {
        public String type() {
            return "ready";
        }
    }

    /**
     * The answer to a {@link Request}: its id and the move. {@code info} is any JSON value the
     * bot wants to send with the move (what it was thinking), kept in the replay beside it (at
     * most 4096 bytes of compact JSON; a larger one is kept as its size only): Java
     * {@code null} when absent, a {@code NullNode} for a JSON {@code null}.
     */
    @JsonPropertyOrder({"type"})
    record MoveReply(@Required long id, @Required Move move,
                     @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode info) implements FromBot {
        public String type() {
            return "move";
        }

        /** The reply {@code move} to request {@code id}, without {@code info}. */
        public MoveReply(long id, Move move) {
            this(id, move, null);
        }
    }
}
