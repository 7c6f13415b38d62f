package arena.protocol;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field every message of its kind carries, whose value may be JSON {@code null}
 * ({@code trump}, {@code turn_up}, a trump event's {@code seat}, {@code chooser}):
 * {@code null} in Java, and printed as {@code null}, never left out.
 *
 * <p>Not named {@code @Nullable}: in JSR-305 and JSpecify that says only that a value may
 * be {@code null}, which a {@link MayBeAbsent} field's may be too; this one says the field
 * is always there.
 */
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@JacksonAnnotationsInside
@JsonProperty(required = true)
@JsonInclude(JsonInclude.Include.ALWAYS)
public @interface RequiredNullable {}
