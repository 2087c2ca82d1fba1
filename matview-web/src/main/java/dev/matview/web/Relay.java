package dev.matview.web;

import dev.matview.peer.PeerResponse;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/** Passes the owning instance's answer on to the caller as it came. */
final class Relay {

  private static final List<String> PASSED_HEADERS =
      List.of(
          HttpHeaders.CONTENT_TYPE,
          HttpHeaders.RETRY_AFTER,
          ViewController.SERVED_BY_HEADER,
          ViewController.REPLICA_HEADER,
          ViewController.OFFSET_LAG_HEADER,
          Consistency.POSITION_HEADER);

  private Relay() {}

  static ResponseEntity<byte[]> of(PeerResponse response) {
    ResponseEntity.BodyBuilder builder = ResponseEntity.status(response.status());
    for (String name : PASSED_HEADERS) {
      String value = response.header(name);
      if (value != null) {
        builder.header(name, value);
      }
    }
    return builder.body(response.body());
  }
}
