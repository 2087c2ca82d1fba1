package dev.matview.web;

import dev.matview.position.ReadBound;
import dev.matview.query.ViewBatchService;
import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.BatchItem;
import dev.matview.query.answer.WindowValue;
import dev.matview.query.answer.WindowsItem;
import dev.matview.query.routing.CallerContext;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Serves the list of views and lookups of keys, their windows and batches; every mapping produces
 * JSON only, so a request that accepts none is refused with 406 before it is routed elsewhere.
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

  private final KeyLookups keyLookups;

  private final Consistency consistency;

  private final PositionedAnswers answers;

  private final ViewBatchService batchService;

  private final BatchBodyReader batchBodies;

  private final long maxKeyBytes;

  /** A controller that answers through {@code queryService} and {@code batchService}. */
  public ViewController(ViewQueryService queryService, ViewBatchService batchService) {
    this(
        queryService,
        batchService,
        JsonMapper.builder().build(),
        RequestLimits.DEFAULTS,
        Consistency.unsigned(queryService.applicationId()));
  }

  /** A controller that reads batch bodies with {@code mapper} within {@code limits}. */
  public ViewController(
      ViewQueryService queryService,
      ViewBatchService batchService,
      ObjectMapper mapper,
      RequestLimits limits,
      Consistency consistency) {
    this.queryService = queryService;
    this.consistency = consistency;
    this.answers = new PositionedAnswers(consistency);
    this.keyLookups = new KeyLookups(queryService, consistency);
    this.batchService = batchService;
    this.batchBodies = new BatchBodyReader(mapper, limits);
    this.maxKeyBytes = limits.maxKeyLength().toBytes();
  }

  /** Lists every view. */
  @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
  public List<ViewInfo> views() {
    String applicationId = this.queryService.applicationId();
    return this.queryService.views().stream()
        .map(view -> ViewInfo.of(view, applicationId))
        .toList();
  }

  /** The current value of a key of a table view, in the path or, for any key, in {@code ?key=}. */
  @GetMapping(
      path = {"/{view}/keys/{key}", "/{view}/key"},
      produces = MediaType.APPLICATION_JSON_VALUE)
  public @Nullable ResponseEntity<?> key(@PathVariable String view, HttpServletRequest request) {
    String key = RequestParameters.key(request, view, 0, this.maxKeyBytes);
    return this.keyLookups.answer(request, view, key, caller(request, view));
  }

  private CallerContext caller(HttpServletRequest request, String view) {
    return this.answers.caller(request, view, ReadBound.RECORD_PARAMETER);
  }

  /** The windows of a key that start in [from, to], the key in the path or in {@code ?key=}. */
  @GetMapping(
      path = {"/{view}/keys/{key}/windows", "/{view}/key/windows"},
      produces = MediaType.APPLICATION_JSON_VALUE)
  public @Nullable ResponseEntity<?> windows(
      @PathVariable String view,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      HttpServletRequest request) {
    String key = RequestParameters.key(request, view, 1, this.maxKeyBytes);
    @Nullable Instant fromInstant = RequestParameters.instant(view, "from", from);
    @Nullable Instant toInstant = RequestParameters.instant(view, "to", to);
    CallerContext caller = caller(request, view);
    return this.consistency.answer(
        request,
        view,
        caller.bound(),
        () -> this.queryService.windows(view, key, fromInstant, toInstant, caller),
        (routed) ->
            Refusals.respond(
                routed,
                (answer) ->
                    this.keyLookups
                        .answered(
                            HttpStatus.OK, answer.replica(), PositionedAnswers.positionOf(routed))
                        .body(new KeyWindows(answer.key(), answer.windows()))));
  }

  /**
   * The values, or the windows in [from, to], of many keys in the order asked; the body is read
   * here within {@code matview.web.max-batch-body}, not whole by a message converter.
   */
  @PostMapping(
      path = "/{view}/batch",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  public @Nullable ResponseEntity<?> batch(
      @PathVariable String view,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      HttpServletRequest request) {
    List<JsonNode> keys = this.batchBodies.keys(view, request);
    CallerContext caller = caller(request, view);
    if (this.queryService.view(view).window() != null) {
      @Nullable Instant fromInstant = RequestParameters.instant(view, "from", from);
      @Nullable Instant toInstant = RequestParameters.instant(view, "to", to);
      return this.answers.answer(
          request,
          view,
          caller,
          () -> this.batchService.windows(view, keys, fromInstant, toInstant, caller),
          MediaType.APPLICATION_JSON,
          WindowsBatchAnswer::new);
    }
    RequestParameters.requireNoRange(view, from, to);
    return this.answers.answer(
        request,
        view,
        caller,
        () -> this.batchService.lookup(view, keys, caller),
        MediaType.APPLICATION_JSON,
        BatchAnswer::new);
  }

  /** One key and its value. */
  public record KeyValue(Object key, Object value) {}

  /** One key and its windows, oldest first. */
  public record KeyWindows(Object key, List<WindowValue> windows) {}

  /** The answers of a batch lookup, one per key in the order asked. */
  public record BatchAnswer(List<BatchItem> items) {}

  /** The answers of a batch lookup of a windowed or session view, in the order asked. */
  public record WindowsBatchAnswer(List<WindowsItem> items) {}
}
