// YOUR BOT: Strategy.choose is the one function to write; Bot.java and Main.java do the rest.
//
// The sample plays the greedy strategy of Greedy.java (read it, call it, or delete it).
// Helpers, in package arena.protocol: state.winning() (who holds the trick), state.unseen(),
// card.beats(best, trump), Move.cards(legal), request.time().budgetMs(); Bot.randomFor seeds
// a Random. If choose throws or returns a move not in legal, the bot logs it and plays
// legal.get(0): a bug costs one move, not the game. Log with System.err.println (stdout
// carries the protocol; a stray System.out.println is sent to stderr).
package arena.bot;

import arena.protocol.Message;
import arena.protocol.Move;
import arena.protocol.State;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The bot's player. Keep whatever it should remember across requests here. */
public final class Strategy {

    /** The share of random moves ({@code --eps}); 0 plays the greedy moves only. */
    private final double eps;
    /** The {@code game_start} of the game in progress (game id, seat, players, rules), once seen. */
    private Message.GameStart game;
    /** Reseeded at each {@code game_start} from the game id and the seat: same game, same draws. */
    private Random random = Bot.randomFor("", 0);

    public Strategy(double eps) {
        this.eps = eps;
    }

    /**
     * The move for a request, one of {@code legal} (never empty), and its info. {@code state} is
     * the seat's whole information set; {@code request.action()} says what is asked (a card,
     * trumps, a declaration), {@code request.time()} how long it may take (think for at most
     * {@code budgetMs()}). The info is any JSON value (a Map, a record, a JsonNode...), kept in
     * the replay beside the move (under 4096 bytes); {@code Decision.of(move)} sends none.
     */
    public Decision choose(State state, List<Move> legal, Message.Request request) {
        if (eps > 0 && random.nextDouble() < eps) {
            return Decision.of(legal.get(random.nextInt(legal.size())), Map.of("rule", "random"));
        }
        Greedy.Choice greedy = Greedy.greedy(state, legal, request.action());
        return Decision.of(greedy.move(), Map.of("rule", greedy.rule()));
    }

    /** Sees every message that gets no reply: game_start, hand_start, events, error, hand_end, game_end. */
    public void observe(Message message) {
        if (message instanceof Message.GameStart start) {
            game = start;
            random = Bot.randomFor(start.game(), start.seat());
        }
    }
}
