package dev.matview.peer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * Signs the requests an instance sends another, and checks the signature of those it receives: an
 * HMAC over the method, the path and query as sent, a timestamp and the body's SHA-256, accepted
 * within a freshness window.
 */
public final class PeerRequests {

  /**
   * Marks a request that another instance sent: {@value #FORWARDED} when it is to be answered here,
   * never forwarded again; {@value #RELAYED} when it is to be routed here as a client's would be,
   * except that it is never relayed again.
   */
  public static final String FORWARDED_HEADER = "Matview-Forwarded";

  /** The {@link #FORWARDED_HEADER} value of a request to answer here. */
  public static final String FORWARDED = "1";

  /** The {@link #FORWARDED_HEADER} value of a request to route here. */
  public static final String RELAYED = "relay";

  /** Carries the signature of a request between instances. */
  public static final String SIGNATURE_HEADER = "Matview-Signature";

  private static final String PURPOSE = "request";

  private static final String VERSION = "v1";

  private static final String NO_BODY = "none";

  private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

  private final PeerTrust trust;

  private final Clock clock;

  private final Duration validity;

  /**
   * Requests signed with keys of {@code trust}, accepted when their timestamp lies within {@code
   * validity} of this instance's {@code clock}.
   */
  public PeerRequests(PeerTrust trust, Clock clock, Duration validity) {
    if (validity.isZero() || validity.isNegative()) {
      throw new IllegalArgumentException("The validity must be positive, was " + validity);
    }
    this.trust = trust;
    this.clock = clock;
    this.validity = validity;
  }

  /**
   * The signature of a request, for {@link #SIGNATURE_HEADER}, or {@code null} while the secret is
   * not known.
   *
   * @param method the HTTP method
   * @param pathAndQuery the path and query exactly as sent, percent-encoding included
   * @param body the body, or {@code null} for none
   */
  public @Nullable String sign(String method, String pathAndQuery, byte @Nullable [] body) {
    HmacKey key = this.trust.key(PURPOSE);
    if (key == null) {
      return null;
    }
    String timestamp = Long.toString(this.clock.millis());
    String digest = body != null ? digest(body) : NO_BODY;
    byte[] mac = key.mac(utf8(method), utf8(pathAndQuery), utf8(timestamp), utf8(digest));
    return VERSION + "." + timestamp + "." + digest + "." + BASE64.encodeToString(mac);
  }

  /**
   * Checks {@code signature} against a request received.
   *
   * @param method the HTTP method
   * @param pathAndQuery the path and query exactly as received, percent-encoding included
   * @param signature the value of {@link #SIGNATURE_HEADER}, or {@code null}
   */
  public Check check(String method, String pathAndQuery, @Nullable String signature) {
    if (signature == null) {
      return Check.refused("the request carries no " + SIGNATURE_HEADER + " header");
    }
    HmacKey key = this.trust.key(PURPOSE);
    if (key == null) {
      return Check.refused("this instance does not know the peer secret yet");
    }
    String[] parts = signature.split("\\.", -1);
    if (parts.length != 4 || !parts[0].equals(VERSION) || parts[1].length() > 19) {
      return Check.refused("the signature is not one Matview writes");
    }
    long timestamp;
    byte[] mac;
    try {
      timestamp = Long.parseLong(parts[1]);
      mac = Base64.getUrlDecoder().decode(parts[3]);
    } catch (IllegalArgumentException ex) {
      return Check.refused("the signature is not one Matview writes");
    }
    if (!key.matches(mac, utf8(method), utf8(pathAndQuery), utf8(parts[1]), utf8(parts[2]))) {
      return Check.refused("the signature does not match the request");
    }
    long age = Math.abs(this.clock.millis() - timestamp);
    if (age > this.validity.toMillis()) {
      return Check.refused(
          "the signature is "
              + age
              + " ms from this instance's clock, more than "
              + this.validity.toMillis()
              + " ms");
    }
    return new Check(true, parts[2].equals(NO_BODY) ? null : parts[2], "valid");
  }

  /** The SHA-256 of {@code body}, URL-safe Base64 without padding. */
  public static String digest(byte[] body) {
    try {
      return BASE64.encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
    } catch (NoSuchAlgorithmException ex) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", ex);
    }
  }

  private static byte[] utf8(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * What the check of a signature found.
   *
   * @param valid whether the request comes from an instance of the same application
   * @param bodyDigest the SHA-256 of the body that was signed, or {@code null} when none was
   * @param reason why the signature was refused, for logs
   */
  public record Check(boolean valid, @Nullable String bodyDigest, String reason) {

    static Check refused(String reason) {
      return new Check(false, null, reason);
    }

    /** Whether the request is valid and {@code body} is the body that was signed. */
    public boolean matchesBody(byte[] body) {
      return this.valid
          && this.bodyDigest != null
          && MessageDigest.isEqual(utf8(this.bodyDigest), utf8(PeerRequests.digest(body)));
    }
  }
}
