package dev.matview.web;

import dev.matview.query.InvalidQueryException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/** Parses request parameters, saying which one was wrong and how to write it. */
final class RequestParameters {

  static final int DEFAULT_LIMIT = 100;

  private RequestParameters() {}

  static @Nullable Instant instant(String view, String parameter, @Nullable String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException ex) {
      throw new InvalidQueryException(
          view,
          parameter,
          "'"
              + parameter
              + "' is not an ISO-8601 instant: '"
              + value
              + "'; write it like 2026-01-31T12:00:00Z");
    }
  }

  static Instant requiredInstant(String view, String parameter, @Nullable String value) {
    Instant instant = instant(view, parameter, value);
    if (instant == null) {
      throw new InvalidQueryException(view, parameter, "'" + parameter + "' is required");
    }
    return instant;
  }

  static int limit(String view, @Nullable String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT_LIMIT;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException ex) {
      throw new InvalidQueryException(
          view, "limit", "'limit' is not a whole number: '" + value + "'");
    }
  }
}
