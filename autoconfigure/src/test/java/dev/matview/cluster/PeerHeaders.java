package dev.matview.cluster;

import dev.matview.peer.PeerRequests;

/** The header names and values, in pairs, with which a request passes for one a peer forwarded. */
final class PeerHeaders {

  private PeerHeaders() {}

  /** The forwarded marker and {@code signature}. */
  static String[] signed(String signature) {
    return new String[] {
      PeerRequests.FORWARDED_HEADER, "1", PeerRequests.SIGNATURE_HEADER, signature
    };
  }

  /**
   * The forwarded marker and a signature by {@code requests} of a GET of {@code signedPath}: the
   * path below the context path, with the context path in front.
   */
  static String[] signedGet(PeerRequests requests, String signedPath) {
    return signed(requests.sign("GET", signedPath, null));
  }
}
