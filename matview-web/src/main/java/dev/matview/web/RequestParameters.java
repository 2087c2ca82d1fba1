package dev.matview.web;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.InvalidQueryException;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.UriUtils;

/** Parses request parameters, saying which one was wrong and how to write it. */
final class RequestParameters {

  static final int DEFAULT_LIMIT = 100;

  private RequestParameters() {}

  /**
   * The key of a request to one of a key's endpoints: in the path segment {@code fromEnd} segments
   * before the last ({@code .../keys/{key}}), or in the query parameter {@code key} ({@code
   * .../key?key=}), which carries any key.
   */
  static String key(HttpServletRequest request, String view, int fromEnd, long maxKeyBytes) {
    return (request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE)
                instanceof String pattern
            && pattern.contains("{key}"))
        ? pathKey(request, view, fromEnd, maxKeyBytes)
        : queryKey(request, view, maxKeyBytes);
  }

  /** The key given once in the query parameter {@code key}, as the container decoded it. */
  private static String queryKey(HttpServletRequest request, String view, long maxKeyBytes) {
    String[] values = request.getParameterValues(PeerPath.KEY_PARAMETER);
    if (values == null) {
      throw new InvalidQueryException(
          view,
          "key",
          "'key' is required: ask for a key as .../key?key=<the key, percent-encoded>");
    }
    if (values.length != 1) {
      throw new InvalidQueryException(
          view,
          "key",
          "'key' is given "
              + values.length
              + " times; give it once, or ask for several keys with POST .../batch");
    }
    return withinLimit(view, values[0], maxKeyBytes);
  }

  /**
   * The key in the path segment {@code fromEnd} segments before the last, read from the raw path
   * and decoded here: the path variable would lose what follows a {@code ;}, which Spring takes for
   * matrix parameters.
   */
  private static String pathKey(
      HttpServletRequest request, String view, int fromEnd, long maxKeyBytes) {
    RequestPath path =
        ServletRequestPathUtils.hasParsedRequestPath(request)
            ? ServletRequestPathUtils.getParsedRequestPath(request)
            : RequestPath.parse(request.getRequestURI(), request.getContextPath());
    String raw = segmentFromEnd(path.pathWithinApplication().elements(), fromEnd);
    String key;
    try {
      key = UriUtils.decode(raw, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view, "key", "The key is not percent-encoded correctly: " + ex.getMessage());
    }
    return withinLimit(view, key, maxKeyBytes);
  }

  /** {@code key}, refused when longer than {@code maxKeyBytes} in UTF-8. */
  private static String withinLimit(String view, String key, long maxKeyBytes) {
    long length = lengthOver(key, maxKeyBytes);
    if (length > maxKeyBytes) {
      throw new KeyTooLongException(view, length, maxKeyBytes);
    }
    return key;
  }

  /** Refuses {@code value} of {@code parameter}, a key, when over {@code maxKeyBytes} in UTF-8. */
  static void requireKeyWithinLimit(
      String view, String parameter, @Nullable String value, long maxKeyBytes) {
    long length = (value != null) ? lengthOver(value, maxKeyBytes) : 0;
    if (length > maxKeyBytes) {
      throw new InvalidQueryException(
          view,
          parameter,
          "'"
              + parameter
              + "' is a key of "
              + length
              + " bytes (UTF-8); keys may be at most "
              + maxKeyBytes
              + " bytes (matview.web.max-key-length)");
    }
  }

  /** The UTF-8 length of {@code key} when it may be over {@code maxKeyBytes}, else 0. */
  private static long lengthOver(String key, long maxKeyBytes) {
    // A char takes at most 3 UTF-8 bytes, so most keys need no count of their bytes.
    return (key.length() * 3L > maxKeyBytes) ? key.getBytes(StandardCharsets.UTF_8).length : 0;
  }

  /** The value of the path segment {@code fromEnd} segments before the last one. */
  private static String segmentFromEnd(List<PathContainer.Element> elements, int fromEnd) {
    int skipped = 0;
    for (int i = elements.size() - 1; i >= 0; i--) {
      if (elements.get(i) instanceof PathContainer.PathSegment segment && skipped++ == fromEnd) {
        return segment.value();
      }
    }
    throw new IllegalStateException("The request path has fewer segments than its mapping");
  }

  /** Whether the path pattern that mapped {@code request} ends with the segment {@code last}. */
  static boolean mappedTo(HttpServletRequest request, String last) {
    return request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE)
            instanceof String pattern
        && pattern.endsWith("/" + last);
  }

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

  /** Refuses {@code from} and {@code to} on a batch of a table, which has no windows to bound. */
  static void requireNoRange(String view, @Nullable String from, @Nullable String to) {
    if (from != null || to != null) {
      String parameter = (from != null) ? "from" : "to";
      throw new InvalidQueryException(
          view,
          parameter,
          "'"
              + parameter
              + "' bounds the windows of a windowed or session view's batch; view '"
              + view
              + "' is a table: leave it out");
    }
  }

  /** Refuses a {@code limit} on a streamed scan, which answers its whole range. */
  static void requireNoLimit(String view, @Nullable String limit) {
    if (limit != null) {
      throw new InvalidQueryException(
          view,
          "limit",
          "A streamed scan (Accept: application/x-ndjson) answers the whole range; leave out limit,"
              + " or ask for pages with Accept: application/json");
    }
  }

  /** Refuses {@code parameter}, which only a streamed scan takes, on a request for a page. */
  static void requireStreamed(String view, String parameter, @Nullable String value) {
    if (value != null) {
      throw new InvalidQueryException(
          view,
          parameter,
          "'"
              + parameter
              + "' resumes a streamed scan (Accept: application/x-ndjson); a page resumes at the"
              + " cursor of the page before it");
    }
  }
}
