package dev.matview.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/** The wait a {@code Retry-After} header asks for: seconds, or an HTTP date. */
final class RetryAfter {

  /** The wait when the header is missing or cannot be read, as Matview's own instances take it. */
  static final Duration DEFAULT = Duration.ofSeconds(1);

  /** The shortest wait, so that a {@code Retry-After: 0} does not become a burst of requests. */
  static final Duration MINIMUM = Duration.ofMillis(100);

  private RetryAfter() {}

  /** The wait that {@code header} asks for at {@code now}. */
  static Duration of(@Nullable String header, Instant now) {
    if (header == null || header.isBlank()) {
      return DEFAULT;
    }
    String value = header.strip();
    Duration wait;
    try {
      wait =
          value.chars().allMatch(Character::isDigit)
              ? Duration.ofSeconds(Long.parseLong(value))
              : Duration.between(
                  now, ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME));
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException ex) {
      return DEFAULT;
    }
    return (wait.compareTo(MINIMUM) < 0) ? MINIMUM : wait;
  }
}
