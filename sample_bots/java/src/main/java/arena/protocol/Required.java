package arena.protocol;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field every message of its kind carries, never {@code null}: a line without it,
 * or with {@code null} there, does not parse.
 *
 * <p>The three field annotations of this package encode the schema's "required" and
 * "nullable" exactly, so that a parsed message prints back as it came: {@code Required},
 * {@link RequiredNullable} (always present, may be {@code null}: printed as {@code null}) and
 * {@link MayBeAbsent} (left out when absent, never {@code null}).
 */
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@JacksonAnnotationsInside
@JsonProperty(required = true)
@JsonSetter(nulls = Nulls.FAIL)
public @interface Required {}
