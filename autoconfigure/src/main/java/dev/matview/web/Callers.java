package dev.matview.web;

import dev.matview.query.CallerContext;
import dev.matview.query.PeerClient;
import org.springframework.http.HttpHeaders;

/** Reads what matters for routing a lookup from its request headers. */
final class Callers {

  private Callers() {}

  static CallerContext from(HttpHeaders headers) {
    return new CallerContext(
        "1".equals(headers.getFirst(PeerClient.FORWARDED_HEADER)),
        headers.getFirst(HttpHeaders.AUTHORIZATION));
  }
}
