package arena.protocol;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An optional field ({@code dog_cards}, {@code error.id}, {@code ready.version},
 * {@code knocked}...): Java {@code null} when the message did not carry it, and then
 * left out when printed. (The protocol never sends such a field as JSON {@code null}; a line
 * that does is read as if the field were absent.)
 */
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@JacksonAnnotationsInside
@JsonInclude(JsonInclude.Include.NON_NULL)
public @interface MayBeAbsent {}
