package arena.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What a request asks for. */
public enum Action {
    /** Play a card (or knock, or play blind). */
    @JsonProperty("play") PLAY,
    /** Name trumps. */
    @JsonProperty("trump") TRUMP,
    /** Declare a rainbow, or pass. */
    @JsonProperty("rainbow") RAINBOW,
    /** Declare a hand with no picture card, or pass. */
    @JsonProperty("no_picture") NO_PICTURE
}
