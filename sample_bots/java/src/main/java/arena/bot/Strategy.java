package arena.bot;

import arena.protocol.Message;
import arena.protocol.Move;
import arena.protocol.State;
import java.util.List;

/**
 * How a bot decides. {@link Bot} runs the session and calls {@link #decide} once per request,
 * which calls {@link #choose} unless overridden.
 */
public interface Strategy {

    /**
     * The move for a request.
     *
     * @param state   the request's state: everything this seat may know
     * @param legal   every allowed move, in the protocol's canonical order (never empty)
     * @param request the whole request, for its {@code action()} and {@code time()}
     * @return one of {@code legal}; anything else (or an exception) is logged and replaced
     *         by {@code legal.get(0)}, the move the arena itself would play
     */
    Move choose(State state, List<Move> legal, Message.Request request);

    /**
     * The move for a request, with the {@code info} to send with it (what the bot was
     * thinking: any JSON value, kept in the replay beside the move). The default sends
     * {@link #choose}'s move without info; override it to send info, e.g.
     * {@code return Decision.of(move, Map.of("value", 0.6));}, and have {@code choose}
     * return {@code decide(state, legal, request).move()}.
     *
     * @return a decision whose move is one of {@code legal}; anything else (or an exception)
     *         is logged and replaced by {@code legal.get(0)}, without info
     */
    default Decision decide(State state, List<Move> legal, Message.Request request) {
        return Decision.of(choose(state, legal, request));
    }

    /**
     * Called with every message the bot does not answer ({@code game_start}, events,
     * {@code hand_end}, {@code game_end}, {@code error}), for a strategy that keeps memory
     * across requests. The default ignores them: the state of each request is enough.
     */
    default void observe(Message message) {}

    /**
     * Called once when the bot starts, before it answers {@code hello}, with sample messages
     * (requests among them) that are not from any real game. Heavy initialisation goes here:
     * it counts against {@code limits.startup_ms} (10 s by default, of which the JVM itself
     * takes about half a second), not against the first move. The default does nothing.
     */
    default void warmUp(List<Message> samples) {}
}
