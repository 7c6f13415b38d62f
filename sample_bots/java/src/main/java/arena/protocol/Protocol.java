package arena.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes protocol lines: one JSON object per line, chosen by its {@code type}
 * (and an event by its {@code event}).
 *
 * <p>Unknown fields are ignored (later protocol versions may add some). A value of the wrong
 * JSON type ({@code "id": "46"}), a card that is no card, a missing required field or a
 * {@code null} where none may be are errors, so a line that parses prints back the same.
 */
public final class Protocol {

    private Protocol() {}

    /** Thrown for a line that is not a v1 message. */
    public static final class ProtocolException extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean unknownType;

        ProtocolException(String message, Throwable cause, boolean unknownType) {
            super(message, cause);
            this.unknownType = unknownType;
        }

        /**
         * Whether the line is a JSON object of a {@code type} (or {@code event}) v1 does not
         * know: a bot ignores those, later protocol versions may add some.
         */
        public boolean unknownType() {
            return unknownType;
        }
    }

    /** The record for each {@code type}. */
    private static final Map<String, Class<? extends Message>> TYPES = Map.of(
            "hello", Message.Hello.class,
            "game_start", Message.GameStart.class,
            "hand_start", Message.HandStart.class,
            "request", Message.Request.class,
            "error", Message.ErrorMessage.class,
            "hand_end", Message.HandEnd.class,
            "game_end", Message.GameEnd.class,
            "bye", Message.Bye.class,
            "ready", Message.Ready.class,
            "move", Message.MoveReply.class);

    /** The record for each {@code event} of a {@code type: event} message. */
    private static final Map<String, Class<? extends Message.Event>> EVENTS = Map.of(
            "trump", Message.Event.Trump.class,
            "play", Message.Event.Play.class,
            "knock", Message.Event.Knock.class,
            "trick", Message.Event.Trick.class,
            "declare", Message.Event.Declare.class,
            "cut", Message.Event.Cut.class);

    /** The configured mapper, for bots that want to read or write JSON of their own. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS) // {"type": "bye"}} is no JSON line
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS) // Bye has no field but its type
            .withCoercionConfigDefaults(config -> config
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)) // no 5 -> "5"
            .addModule(new SimpleModule("arena-moves").addDeserializer(Move.class, new MoveDeserializer()))
            .build();

    /** Reads a {@link Move} from its string ({@link Move} is an interface: Jackson needs telling). */
    private static final class MoveDeserializer extends StdDeserializer<Move> {
        private static final long serialVersionUID = 1L;

        MoveDeserializer() {
            super(Move.class);
        }

        @Override
        public Move deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (!parser.hasToken(com.fasterxml.jackson.core.JsonToken.VALUE_STRING)) {
                return (Move) context.handleUnexpectedToken(Move.class, parser);
            }
            String text = parser.getText();
            try {
                return Move.parse(text);
            } catch (IllegalArgumentException e) {
                return (Move) context.handleWeirdStringValue(Move.class, text, e.getMessage());
            }
        }
    }

    /** The {@code type} of a decoded line, or {@code null} when it is not a JSON object with a string type. */
    public static String typeOf(JsonNode tree) {
        JsonNode type = tree.isObject() ? tree.get("type") : null;
        return type != null && type.isTextual() ? type.asText() : null;
    }

    /** Decodes one line into a JSON tree. */
    public static JsonNode tree(String line) throws ProtocolException {
        try {
            return MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            throw new ProtocolException("not JSON: " + e.getOriginalMessage(), e, false);
        }
    }

    /** Parses one line into its message record. */
    public static Message read(String line) throws ProtocolException {
        return read(tree(line));
    }

    /**
     * Converts a decoded line into its message record.
     *
     * @throws ProtocolException for a type or event this version does not know, or a message
     *                           that does not fit its record
     */
    public static Message read(JsonNode tree) throws ProtocolException {
        String type = typeOf(tree);
        Class<? extends Message> kind = type == null ? null : TYPES.get(type);
        if ("event".equals(type)) {
            JsonNode event = tree.get("event");
            kind = event != null && event.isTextual() ? EVENTS.get(event.asText()) : null;
            if (kind == null) {
                throw new ProtocolException("not a v1 event: " + event, null, true);
            }
        }
        if (kind == null) {
            throw new ProtocolException("not a v1 message type: " + tree.get("type"), null, type != null);
        }
        try {
            return MAPPER.treeToValue(tree, kind);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new ProtocolException("bad " + type + ": " + why, e, false);
        }
    }

    /** One message of every kind, with every optional field: see {@link #warmUp()}. */
    private static final String[] SAMPLES = {
        "{\"type\": \"hello\", \"protocol\": 1, \"limits\": {\"startup_ms\": 10000, \"move_ms\": 1000, \"bank_ms\": 10000}}",
        "{\"type\": \"game_start\", \"game\": \"g1-1\", \"seat\": 0, \"players\": [\"a\", \"b\"], \"rules\": {\"players\": 2,"
                + " \"dog_life\": \"standard\", \"dog_first_hand_only\": false, \"blind_dog\": false, \"upside_dog\": true,"
                + " \"rainbow\": false, \"no_picture\": false, \"trumps_broken\": false, \"eliminated_deals\": false,"
                + " \"sweep_wins\": false, \"tie_break\": \"cut\"}}",
        "{\"type\": \"hand_start\", \"hand\": 5, \"dealer\": 1, \"cards\": [\"4D\"], \"hand_size\": 3, \"turn_up\": null,"
                + " \"statuses\": [\"active\", \"dog\"], \"dog_cards\": {\"1\": \"7S\"}}",
        "{\"type\": \"event\", \"event\": \"trump\", \"suit\": \"C\", \"seat\": null}",
        "{\"type\": \"event\", \"event\": \"play\", \"seat\": 1, \"card\": \"QS\"}",
        "{\"type\": \"event\", \"event\": \"knock\", \"seat\": 1}",
        "{\"type\": \"event\", \"event\": \"trick\", \"winner\": 1, \"cards\": [[1, \"3D\"]]}",
        "{\"type\": \"event\", \"event\": \"declare\", \"seat\": 1, \"what\": \"rainbow\", \"cards\": [\"2C\"]}",
        "{\"type\": \"event\", \"event\": \"cut\", \"purpose\": \"dealer\", \"draws\": [[0, \"KH\"]], \"winner\": 0}",
        "{\"type\": \"request\", \"id\": 23, \"action\": \"play\", \"legal\": [\"knock\", \"7S\"], \"state\": {\"seat\": 0,"
                + " \"hand\": 5, \"hand_size\": 3, \"dealer\": 0, \"trump\": \"D\", \"cards\": [\"7S\"], \"leader\": 1,"
                + " \"trick\": [[1, \"5S\"]], \"played\": [[1, \"AH\"], [1, \"5S\"]], \"tricks\": [0, 1, 0],"
                + " \"statuses\": [\"dog\", \"active\", \"dog\"], \"turn_up\": null, \"dog_cards\": {\"0\": \"7S\"},"
                + " \"history\": [{\"leader\": 1, \"moves\": [[1, \"AH\"], [2, \"knock\"], [0, \"knock\"]], \"winner\": 1}],"
                + " \"blind\": [2], \"knocked\": [2]}, \"time\": {\"move_ms\": 1000, \"bank_ms\": 10000}}",
        "{\"type\": \"request\", \"id\": 46, \"action\": \"play\", \"legal\": [\"2H\", \"5S\", \"TH\", \"AS\"], \"state\": {\"seat\": 0,"
                + " \"hand\": 3, \"hand_size\": 5, \"dealer\": 2, \"trump\": \"D\", \"cards\": [\"2H\", \"5S\", \"TH\", \"AS\"],"
                + " \"leader\": 2, \"trick\": [[2, \"4C\"]], \"played\": [[0, \"3C\"], [1, \"6C\"], [2, \"9C\"], [2, \"4C\"]],"
                + " \"tricks\": [0, 0, 1], \"statuses\": [\"active\", \"active\", \"active\"], \"turn_up\": null,"
                + " \"history\": [{\"leader\": 0, \"moves\": [[0, \"3C\"], [1, \"6C\"], [2, \"9C\"]], \"winner\": 2}],"
                + " \"blind\": [], \"knocked\": []}, \"time\": {\"move_ms\": 1000, \"bank_ms\": 9340}}",
        "{\"type\": \"request\", \"id\": 1, \"action\": \"play\", \"legal\": [\"2H\", \"3C\", \"QD\", \"KC\", \"AS\"],"
                + " \"state\": {\"seat\": 0, \"hand\": 1, \"hand_size\": 7, \"dealer\": 1, \"trump\": \"H\","
                + " \"cards\": [\"2H\", \"3C\", \"QD\", \"KC\", \"AS\"], \"leader\": 0, \"trick\": [],"
                + " \"played\": [[0, \"7H\"], [1, \"TH\"], [1, \"7C\"], [0, \"8C\"]], \"tricks\": [0, 2],"
                + " \"statuses\": [\"active\", \"active\"], \"turn_up\": \"5H\", \"history\": [], \"blind\": [], \"knocked\": []},"
                + " \"time\": {\"move_ms\": 1000, \"bank_ms\": 10000}}",
        "{\"type\": \"request\", \"id\": 86, \"action\": \"trump\", \"legal\": [\"C\", \"H\", \"D\", \"S\"], \"state\": {\"seat\": 2,"
                + " \"hand\": 7, \"hand_size\": 1, \"dealer\": 1, \"trump\": null, \"cards\": [\"JC\"], \"leader\": 2, \"trick\": [],"
                + " \"played\": [], \"tricks\": [0, 0, 0], \"statuses\": [\"out\", \"dog\", \"active\"], \"turn_up\": null,"
                + " \"history\": [], \"blind\": [], \"knocked\": []}, \"time\": {\"move_ms\": 1000, \"bank_ms\": 10000}}",
        "{\"type\": \"error\", \"id\": 46, \"message\": \"m\"}",
        "{\"type\": \"hand_end\", \"hand\": 2, \"tricks\": [3, 0], \"statuses\": [\"active\", \"dog\"], \"chooser\": 0}",
        "{\"type\": \"game_end\", \"game\": \"g1-1\", \"placements\": [1, 2], \"winner\": 0,"
                + " \"faults\": {\"1\": {\"kind\": \"timeout\", \"detail\": \"d\"}}}",
        "{\"type\": \"bye\"}",
        "{\"type\": \"ready\", \"name\": \"n\", \"version\": \"1\", \"author\": \"a\"}",
        "{\"type\": \"move\", \"id\": 1, \"move\": \"TH\", \"info\": {\"a\": [1, 2.5, null]}}",
    };

    /**
     * Reads and writes one message of every kind, and returns them. Jackson builds its readers
     * and writers on first use, which takes a cold JVM hundreds of milliseconds: calling this
     * before answering {@code hello} moves that cost from the first move to the start-up time.
     * The returned messages (requests among them) can warm up a strategy in turn.
     */
    public static List<Message> warmUp() {
        List<Message> messages = new ArrayList<>(SAMPLES.length);
        for (String sample : SAMPLES) {
            try {
                Message message = read(sample);
                write(message);
                messages.add(message);
            } catch (ProtocolException e) {
                throw new IllegalStateException("a warm-up sample does not parse: " + sample, e);
            }
        }
        return messages;
    }

    /** Writes a message as one line of JSON (without the newline). */
    public static String write(Message message) {
        try {
            return MAPPER.writeValueAsString(message);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + message, e); // records always serialize
        }
    }
}
