package dev.matview.web;

import dev.matview.peer.ProblemTypes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * The problem detail of an error the servlet container answers itself: the container's one-line
 * message, never a stack trace; under the lookup endpoints' base path a 400 also says how to ask
 * for a key no path can carry.
 */
final class ServerErrorProblem {

  private static final int MAX_DETAIL = 300;

  /** What a request the container cannot read must hold. */
  private static final String PERCENT_ENCODED =
      "check that its path and query are percent-encoded UTF-8 (every '%' followed by two hex"
          + " digits)";

  /** How to ask for a key that the server refuses in a path. */
  static final String KEY_IN_QUERY =
      "a key that is '.' or '..', or holds '\\' or a control character, cannot be written in a"
          + " path (nor one that holds '/' where matview.web.encoded-slashes=false): ask for it in"
          + " the query, .../key?key=<the key, percent-encoded> (also .../key/windows?key= and"
          + " .../key/changes?key=), or in a batch";

  /** What a 400 that the container gave no reason for says: what it refuses before any servlet. */
  static final String UNREADABLE_REQUEST =
      "The server could not read the request: "
          + PERCENT_ENCODED
          + ", that a key a path cannot carry is asked in the query (.../key?key=), and that its"
          + " headers are within the server's size limits";

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private ServerErrorProblem() {}

  /**
   * The problem detail of {@code status} with the container's {@code message}, else {@code
   * cause}'s, as JSON; {@code lookupPath} is where the lookup endpoints lie.
   */
  static String json(
      int status,
      @Nullable String message,
      @Nullable Throwable cause,
      @Nullable String path,
      @Nullable String lookupPath) {
    String reason =
        ((message == null || message.isBlank()) && cause != null) ? cause.getMessage() : message;
    HttpStatus known = HttpStatus.resolve(status);
    String title = known != null ? known.getReasonPhrase() : "Error";
    boolean badLookup =
        status == HttpStatus.BAD_REQUEST.value() && ProblemWriter.lies(path, lookupPath);
    Map<String, Object> problem = new LinkedHashMap<>();
    problem.put("type", badLookup ? ProblemTypes.of("invalid-request").toString() : "about:blank");
    problem.put("title", badLookup ? "Bad request" : title);
    problem.put("status", status);
    problem.put(
        "detail",
        badLookup
            ? refused(reason) + ": " + PERCENT_ENCODED + "; " + KEY_IN_QUERY
            : detail(status, reason, title));
    return MAPPER.writeValueAsString(problem);
  }

  /** What the container said when it refused a request, as the start of a sentence. */
  private static String refused(@Nullable String message) {
    String reason = firstLine(message);
    return "The server refused the request"
        + ((reason.isEmpty() || reason.equalsIgnoreCase("Bad Request")) ? "" : " (" + reason + ")");
  }

  private static String detail(int status, @Nullable String message, String title) {
    if (message == null || message.isBlank() || message.strip().equalsIgnoreCase(title)) {
      return status == HttpStatus.BAD_REQUEST.value() ? UNREADABLE_REQUEST : title;
    }
    return firstLine(message);
  }

  private static String firstLine(@Nullable String message) {
    if (message == null) {
      return "";
    }
    String firstLine = message.lines().findFirst().orElse("").strip();
    return firstLine.length() > MAX_DETAIL ? firstLine.substring(0, MAX_DETAIL) + "..." : firstLine;
  }
}
