package dev.matview.web;

import dev.matview.peer.ForwardedKeys;
import dev.matview.position.InputRecord;
import dev.matview.position.Isolation;
import dev.matview.position.PositionTokenException;
import dev.matview.position.PositionTokens;
import dev.matview.position.ReadBound;
import dev.matview.position.ViewPosition;
import dev.matview.query.answer.InvalidQueryException;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads what a request asks its answer to include: the positions it sends back (the {@value
 * Consistency#POSITION_HEADER} header and {@code position=}), the records it names with {@code
 * after=}, and the state it reads ({@code isolation=}).
 */
final class RequestBounds {

  private final PositionTokens tokens;

  private final Duration maxWait;

  /** Bounds whose positions {@code tokens} read, each waited for at most {@code maxWait}. */
  RequestBounds(PositionTokens tokens, Duration maxWait) {
    this.tokens = tokens;
    this.maxWait = maxWait;
  }

  /** What {@code request} asks its answer of {@code view} to include. */
  ReadBound bound(HttpServletRequest request, String view) {
    return bound(request, view, ReadBound.RECORD_PARAMETER);
  }

  /** What {@code request} asks, with records named by the parameter {@code recordParameter}. */
  ReadBound bound(HttpServletRequest request, String view, String recordParameter) {
    List<String> sent = new ArrayList<>();
    Enumeration<String> headers = request.getHeaders(Consistency.POSITION_HEADER);
    while (headers != null && headers.hasMoreElements()) {
      addNonBlank(sent, headers.nextElement());
    }
    String[] params = request.getParameterValues("position");
    for (String param : (params != null) ? params : new String[0]) {
      addNonBlank(sent, param);
    }
    return bound(view, sent, request.getParameterValues(recordParameter))
        .withIsolation(isolation(view, request));
  }

  /** Which state {@code request} asks to read, {@code null} for the instance's default. */
  static @Nullable Isolation isolation(String view, HttpServletRequest request) {
    try {
      return Isolation.parse(request.getParameter(Isolation.PARAMETER));
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(view, Isolation.PARAMETER, String.valueOf(ex.getMessage()));
    }
  }

  /** What one key among those another instance forwarded together asks, as {@code sent} says. */
  ReadBound bound(String view, ForwardedKeys.Bound sent) {
    List<String> tokens = new ArrayList<>(1);
    addNonBlank(tokens, sent.position());
    return bound(view, tokens, sent.after().isEmpty() ? null : sent.after().toArray(String[]::new));
  }

  private ReadBound bound(String view, List<String> sent, String @Nullable [] afters) {
    if (sent.isEmpty() && afters == null) {
      return ReadBound.NONE;
    }
    ViewPosition position = null;
    for (String token : sent) {
      ViewPosition read = read(view, token);
      position = (position != null) ? position.merge(read) : read;
    }
    String token =
        (sent.size() == 1) ? sent.get(0) : (position != null) ? this.tokens.write(position) : null;
    return new ReadBound(position, token, records(view, afters), this.maxWait);
  }

  private ViewPosition read(String view, String token) {
    try {
      return this.tokens.read(view, token);
    } catch (PositionTokenException ex) {
      throw new InvalidQueryException(view, "position", String.valueOf(ex.getMessage()));
    }
  }

  private static List<InputRecord> records(String view, String @Nullable [] afters) {
    if (afters == null) {
      return List.of();
    }
    if (afters.length > Consistency.MAX_RECORDS) {
      throw new InvalidQueryException(
          view,
          "after",
          "A request may name at most "
              + Consistency.MAX_RECORDS
              + " records with after=, this one names "
              + afters.length
              + "; name the last record of each partition written, which covers those before it");
    }
    List<InputRecord> records = new ArrayList<>(afters.length);
    for (String after : afters) {
      try {
        records.add(InputRecord.parse(after.strip()));
      } catch (IllegalArgumentException ex) {
        throw new InvalidQueryException(view, "after", "after=" + ex.getMessage());
      }
    }
    return records;
  }

  private static void addNonBlank(List<String> tokens, @Nullable String token) {
    if (token != null && !token.isBlank()) {
      tokens.add(token.strip());
    }
  }
}
