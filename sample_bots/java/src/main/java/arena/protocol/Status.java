package arena.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/** A seat's status in a hand. */
public enum Status {
    /** Playing a full hand. */
    @JsonProperty("active") ACTIVE,
    /** Living a Dog's Life: one card, which it may play or knock with. */
    @JsonProperty("dog") DOG,
    /** Out of the game. */
    @JsonProperty("out") OUT
}
