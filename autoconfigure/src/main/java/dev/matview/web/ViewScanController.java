package dev.matview.web;

import dev.matview.query.ViewScanService;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves scans of all keys or all windows of a view a page at a time, and the partition slices that
 * instances ask each other for while they build a page.
 */
@RestController
@RequestMapping("${matview.web.base-path:/views}")
public class ViewScanController {

  private final ViewScanService scanService;

  /** A controller that scans through {@code scanService}. */
  public ViewScanController(ViewScanService scanService) {
    this.scanService = scanService;
  }

  /** A page of the keys of a table view, optionally within key bounds [from, to]. */
  @GetMapping(path = "/{view}/keys", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<?> keys(
      @PathVariable String view,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String limit,
      @RequestParam(required = false) @Nullable String cursor,
      HttpServletRequest request) {
    return Refusals.respond(
        this.scanService.keys(
            view,
            from,
            to,
            RequestParameters.limit(view, limit),
            cursor,
            Callers.from(request, view)),
        ResponseEntity::ok);
  }

  /** A page of the windows of a windowed or session view whose start lies in [from, to]. */
  @GetMapping(path = "/{view}/windows", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<?> windows(
      @PathVariable String view,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String limit,
      @RequestParam(required = false) @Nullable String cursor,
      HttpServletRequest request) {
    return Refusals.respond(
        this.scanService.windows(
            view,
            RequestParameters.instant(view, "from", from),
            RequestParameters.instant(view, "to", to),
            RequestParameters.limit(view, limit),
            cursor,
            Callers.from(request, view)),
        ResponseEntity::ok);
  }

  /**
   * This instance's slice of one partition's keys; only the partition's owner answers, and only to
   * another instance of the application.
   */
  @GetMapping(
      path = "/{view}/partitions/{partition}/keys",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<?> keySlice(
      @PathVariable String view,
      @PathVariable int partition,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String after,
      @RequestParam(required = false) @Nullable String limit,
      @RequestHeader HttpHeaders headers,
      HttpServletRequest request) {
    Callers.requirePeer(view, headers);
    return Refusals.respond(
        this.scanService
            .localSlices()
            .keys(
                view,
                partition,
                from,
                to,
                after,
                RequestParameters.limit(view, limit),
                Callers.from(request, view)),
        ResponseEntity::ok);
  }

  /**
   * This instance's slice of one partition's windows; only the partition's owner answers, and only
   * to another instance of the application.
   */
  @GetMapping(
      path = "/{view}/partitions/{partition}/windows",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<?> windowSlice(
      @PathVariable String view,
      @PathVariable int partition,
      @RequestParam(required = false) @Nullable String from,
      @RequestParam(required = false) @Nullable String to,
      @RequestParam(required = false) @Nullable String after,
      @RequestParam(required = false) @Nullable String limit,
      @RequestHeader HttpHeaders headers,
      HttpServletRequest request) {
    Callers.requirePeer(view, headers);
    return Refusals.respond(
        this.scanService
            .localSlices()
            .windows(
                view,
                partition,
                RequestParameters.requiredInstant(view, "from", from),
                RequestParameters.requiredInstant(view, "to", to),
                after,
                RequestParameters.limit(view, limit),
                Callers.from(request, view)),
        ResponseEntity::ok);
  }
}
