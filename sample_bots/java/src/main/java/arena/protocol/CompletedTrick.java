package arena.protocol;

import java.util.List;

/**
 * A completed trick of this hand, from {@code state.history}: the seat whose card led, every
 * turn in order (a dog's knock included; a dog that knocked when due to lead comes first,
 * before the leader's card), and the winner.
 */
public record CompletedTrick(@Required int leader, @Required List<Turn> moves, @Required int winner) {}
