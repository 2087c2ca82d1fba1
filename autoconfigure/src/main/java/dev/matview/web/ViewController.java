package dev.matview.web;

import dev.matview.query.InvalidQueryException;
import dev.matview.query.KeyAnswer;
import dev.matview.query.Replica;
import dev.matview.query.ViewQueryService;
import dev.matview.query.WindowValue;
import dev.matview.query.WindowsAnswer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Serves view lookups over HTTP: parses the request, asks the query service, maps the answer. */
@RestController
@RequestMapping("${matview.web.base-path:/views}")
public class ViewController {

  /** Names the {@code host:port} of the instance whose store answered. */
  public static final String SERVED_BY_HEADER = "Matview-Served-By";

  /** Says whether an {@code active} or {@code standby} replica answered. */
  public static final String REPLICA_HEADER = "Matview-Replica";

  /** The answering store partition's changelog lag in offsets. */
  public static final String OFFSET_LAG_HEADER = "Matview-Offset-Lag";

  private final ViewQueryService queryService;

  /** A controller that answers through {@code queryService}. */
  public ViewController(ViewQueryService queryService) {
    this.queryService = queryService;
  }

  /** Lists every view. */
  @GetMapping
  public List<ViewInfo> views() {
    String applicationId = this.queryService.applicationId();
    return this.queryService.views().stream()
        .map(view -> ViewInfo.of(view, applicationId))
        .toList();
  }

  /** The current value of one key of a table view. */
  @GetMapping("/{view}/keys/{key}")
  public ResponseEntity<KeyValue> key(@PathVariable String view, @PathVariable String key) {
    KeyAnswer answer = this.queryService.get(view, key);
    if (answer.value() == null) {
      throw new KeyNotFoundException(view, answer.key());
    }
    return withReplica(answer.replica()).body(new KeyValue(answer.key(), answer.value()));
  }

  /** The windows of one key of a windowed or session view whose start lies in [from, to]. */
  @GetMapping("/{view}/keys/{key}/windows")
  public ResponseEntity<KeyWindows> windows(
      @PathVariable String view,
      @PathVariable String key,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to) {
    WindowsAnswer answer =
        this.queryService.windows(view, key, instant(view, "from", from), instant(view, "to", to));
    return withReplica(answer.replica()).body(new KeyWindows(answer.key(), answer.windows()));
  }

  private static @Nullable Instant instant(String view, String parameter, @Nullable String value) {
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

  private static ResponseEntity.BodyBuilder withReplica(Replica replica) {
    return ResponseEntity.ok()
        .header(SERVED_BY_HEADER, replica.servedBy())
        .header(REPLICA_HEADER, replica.role().label())
        .header(OFFSET_LAG_HEADER, Long.toString(replica.offsetLag()));
  }

  /**
   * One key and its value.
   *
   * @param key the key
   * @param value its value
   */
  public record KeyValue(Object key, Object value) {}

  /**
   * One key and its windows.
   *
   * @param key the key
   * @param windows its windows, oldest first
   */
  public record KeyWindows(Object key, List<WindowValue> windows) {}
}
