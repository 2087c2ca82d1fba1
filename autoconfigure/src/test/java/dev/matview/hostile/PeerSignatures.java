package dev.matview.hostile;

import dev.matview.peer.PeerRequests;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Signs fuzzed requests with the instances' own signer, as a peer would, or forges a signature from
 * a real one in one of the ways an attacker could, so that the fuzzer reaches the MAC check rather
 * than stopping at the signature's syntax.
 */
final class PeerSignatures {

  /** How a fuzzed request's signature is made. */
  enum Kind {
    /** Signed as a peer signs: the request must be served as a peer's. */
    VALID,
    /** A real MAC cut to fewer bytes, as short as one. */
    TRUNCATED,
    /** A real MAC with one bit flipped. */
    BIT_FLIPPED,
    /** A real signature of another path. */
    OTHER_PATH,
    /** A real signature of another body (of no body, for a GET). */
    OTHER_BODY,
    /** A real signature made outside the freshness window. */
    STALE,
    /** A real signature of a forward, sent with the relay marker. */
    OTHER_MARKER,
    /** A signature of an older format, with a MAC of a few bytes. */
    OLD_FORMAT
  }

  /** Targets that reach Matview's filter as written: no percent sign, space or odd character. */
  private static final Pattern PLAIN_TARGET =
      Pattern.compile("/views(/[A-Za-z0-9._~-]*)*(\\?[A-Za-z0-9._~=&:-]*)?");

  private final PeerRequests current;

  private final PeerRequests stale;

  /** Signatures by {@code current}, and by {@code stale} whose clock is out of the window. */
  PeerSignatures(PeerRequests current, PeerRequests stale) {
    this.current = current;
    this.stale = stale;
  }

  /**
   * The most bytes a signed request's line and headers may take before its signature, well within
   * the server's 8 KB, so that what answers it is Matview's filter and not the server's limit.
   */
  private static final int MAX_HEAD_BYTES = 6 * 1024;

  /**
   * Whether {@code request} is one a peer could send: GET or POST of a plain Matview target, with
   * headers the server takes.
   */
  static boolean signable(RequestFuzzer.FuzzRequest request) {
    int head =
        request.target().length()
            + request.headers().entrySet().stream()
                .mapToInt((header) -> header.getKey().length() + header.getValue().length() + 4)
                .sum();
    return (request.method().equals("GET") || request.method().equals("POST"))
        && !request.chunked()
        && head <= MAX_HEAD_BYTES
        && PLAIN_TARGET.matcher(request.target()).matches();
  }

  /** {@code request} marked as forwarded and signed as {@code kind} says. */
  RequestFuzzer.FuzzRequest sign(RequestFuzzer.FuzzRequest request, Kind kind, Random random) {
    Map<String, String> headers = new LinkedHashMap<>(request.headers());
    headers.put(PeerRequests.FORWARDED_HEADER, PeerRequests.FORWARDED);
    byte[] body = request.method().equals("POST") ? request.body() : null;
    String signature =
        switch (kind) {
          case VALID, TRUNCATED, BIT_FLIPPED, OTHER_MARKER ->
              this.current.sign(request.method(), request.target(), body, headers);
          case OTHER_PATH ->
              this.current.sign(request.method(), request.target() + "x", body, headers);
          case OTHER_BODY ->
              this.current.sign(
                  request.method(), request.target(), body == null ? new byte[1] : null, headers);
          case STALE -> this.stale.sign(request.method(), request.target(), body, headers);
          case OLD_FORMAT -> "v1." + System.currentTimeMillis() + ".none.AA";
        };
    if (signature == null) {
      throw new IllegalStateException("The instances have not agreed on a secret");
    }
    signature =
        switch (kind) {
          case TRUNCATED ->
              withMac(signature, Arrays.copyOf(mac(signature), 1 + random.nextInt(31)));
          case BIT_FLIPPED -> {
            byte[] mac = mac(signature);
            int bit = random.nextInt(mac.length * 8);
            mac[bit / 8] ^= (byte) (1 << (bit % 8));
            yield withMac(signature, mac);
          }
          default -> signature;
        };
    if (kind == Kind.OTHER_MARKER) {
      headers.put(PeerRequests.FORWARDED_HEADER, PeerRequests.RELAYED);
    }
    headers.put(PeerRequests.SIGNATURE_HEADER, signature);
    boolean valid = kind == Kind.VALID;
    return new RequestFuzzer.FuzzRequest(
        request.method(),
        request.target(),
        headers,
        request.body(),
        false,
        valid ? null : request.expectedCount(),
        valid ? null : request.expectedKey(),
        request.expectedStatus(),
        kind);
  }

  private static byte[] mac(String signature) {
    return Base64.getUrlDecoder().decode(signature.substring(signature.lastIndexOf('.') + 1));
  }

  private static String withMac(String signature, byte[] mac) {
    return signature.substring(0, signature.lastIndexOf('.') + 1)
        + Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
  }
}
