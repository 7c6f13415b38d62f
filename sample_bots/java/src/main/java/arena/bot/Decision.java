package arena.bot;

import arena.protocol.Move;
import arena.protocol.Protocol;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a {@link Strategy} decides for a request: the move, and the {@code info} to send with
 * it, if any: what the bot was thinking (an estimate, rollouts, a line of play), any JSON
 * value, kept in the replay beside the move. A {@code null} info, or a JSON {@code null},
 * sends no {@code info} at all. Keep it under 4096 bytes of compact JSON: the arena keeps a
 * larger one as {@code {"truncated": true, "bytes": N}}, never a fault.
 *
 * @param move one of the request's legal moves
 * @param info the move's {@code info}, or {@code null} for none
 */
public record Decision(Move move, JsonNode info) {

    /** The move alone, without {@code info}. */
    public static Decision of(Move move) {
        return new Decision(move, null);
    }

    /**
     * The move with {@code info}: a {@link JsonNode}, or anything Jackson writes as JSON (a
     * {@code Map}, a {@code List}, a record, a string, a number...), converted with
     * {@link Protocol#MAPPER} (so a record's fields are written in snake_case). An info that
     * cannot be converted is logged and left out; the move is sent all the same.
     */
    public static Decision of(Move move, Object info) {
        if (info == null || info instanceof JsonNode) {
            return new Decision(move, (JsonNode) info);
        }
        try {
            return new Decision(move, Protocol.MAPPER.valueToTree(info));
        } catch (IllegalArgumentException e) {
            Bot.log("bot: info is not JSON (" + e.getMessage() + "); sending the move without it");
            return new Decision(move, null);
        }
    }
}
