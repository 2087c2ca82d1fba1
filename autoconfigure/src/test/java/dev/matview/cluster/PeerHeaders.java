package dev.matview.cluster;

import dev.matview.peer.PeerRequests;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The header names and values, in pairs, with which a request passes for one a peer forwarded. */
final class PeerHeaders {

  /** The headers that a forward carries besides its signature, as the signer takes them. */
  static final Map<String, String> FORWARDED =
      Map.of(PeerRequests.FORWARDED_HEADER, PeerRequests.FORWARDED);

  private PeerHeaders() {}

  /** The forwarded marker and {@code signature}. */
  static String[] signed(@Nullable String signature) {
    return new String[] {
      PeerRequests.FORWARDED_HEADER,
      PeerRequests.FORWARDED,
      PeerRequests.SIGNATURE_HEADER,
      signature
    };
  }

  /**
   * The forwarded marker and a signature by {@code requests} of a GET of {@code signedPath}: the
   * path below the context path, with the context path in front.
   */
  static String[] signedGet(PeerRequests requests, String signedPath) {
    return signed(requests.sign("GET", signedPath, null, FORWARDED));
  }

  /** The forwarded marker and a signature by {@code requests} of a POST of {@code body}. */
  static String[] signedPost(PeerRequests requests, String signedPath, byte[] body) {
    return signed(requests.sign("POST", signedPath, body, FORWARDED));
  }
}
