package dev.matview.web;

import dev.matview.query.BatchItem;
import dev.matview.query.InvalidQueryException;
import dev.matview.query.KeyAnswer;
import dev.matview.query.Replica;
import dev.matview.query.Routed;
import dev.matview.query.ViewBatchService;
import dev.matview.query.ViewQueryService;
import dev.matview.query.WindowValue;
import dev.matview.query.WindowsAnswer;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Serves the list of views and lookups of keys, their windows and batches of keys: parses the
 * request, asks a query service, maps the answer.
 */
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

  private final ViewBatchService batchService;

  /** A controller that answers through {@code queryService} and {@code batchService}. */
  public ViewController(ViewQueryService queryService, ViewBatchService batchService) {
    this.queryService = queryService;
    this.batchService = batchService;
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
  public ResponseEntity<?> key(
      @PathVariable String view,
      @PathVariable String key,
      @RequestParam(required = false) @Nullable String allowStale,
      @RequestParam(required = false) @Nullable String maxLag,
      @RequestHeader HttpHeaders headers) {
    Routed<KeyAnswer> routed =
        this.queryService.get(view, key, Callers.from(headers, view, allowStale, maxLag));
    if (routed instanceof Routed.Relayed<KeyAnswer> relayed) {
      return Relay.of(relayed.response());
    }
    KeyAnswer answer = ((Routed.Local<KeyAnswer>) routed).answer();
    if (answer.value() == null) {
      throw new KeyNotFoundException(view, answer.key());
    }
    return withReplica(answer.replica()).body(new KeyValue(answer.key(), answer.value()));
  }

  /** The windows of one key of a windowed or session view whose start lies in [from, to]. */
  @GetMapping("/{view}/keys/{key}/windows")
  public ResponseEntity<?> windows(
      @PathVariable String view,
      @PathVariable String key,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String allowStale,
      @RequestParam(required = false) @Nullable String maxLag,
      @RequestHeader HttpHeaders headers) {
    Routed<WindowsAnswer> routed =
        this.queryService.windows(
            view,
            key,
            RequestParameters.instant(view, "from", from),
            RequestParameters.instant(view, "to", to),
            Callers.from(headers, view, allowStale, maxLag));
    if (routed instanceof Routed.Relayed<WindowsAnswer> relayed) {
      return Relay.of(relayed.response());
    }
    WindowsAnswer answer = ((Routed.Local<WindowsAnswer>) routed).answer();
    return withReplica(answer.replica()).body(new KeyWindows(answer.key(), answer.windows()));
  }

  /** The values of many keys of a table view, in the order asked. */
  @PostMapping("/{view}/batch")
  public BatchAnswer batch(
      @PathVariable String view,
      @RequestBody BatchRequest request,
      @RequestHeader HttpHeaders headers) {
    if (request.keys() == null) {
      throw new InvalidQueryException(
          view, "keys", "The body must be a JSON object like {\"keys\": [\"a\", \"b\"]}");
    }
    return new BatchAnswer(this.batchService.lookup(view, request.keys(), Callers.from(headers)));
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

  /**
   * The keys of a batch lookup.
   *
   * @param keys the keys, as JSON values of the view's key type
   */
  public record BatchRequest(@Nullable List<JsonNode> keys) {}

  /**
   * The answers of a batch lookup.
   *
   * @param items one answer per key, in the order asked
   */
  public record BatchAnswer(List<BatchItem> items) {}
}
