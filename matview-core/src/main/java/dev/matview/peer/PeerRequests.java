package dev.matview.peer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * Signs the requests an instance sends another, and checks the signature of those it receives: a
 * full HMAC-SHA256 over the method, the path and query as sent, a timestamp, the body's SHA-256 and
 * every header that changes the answer ({@link #SIGNED_HEADERS}), accepted within a freshness
 * window.
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

  /** The caller's position, which an answer must be at least as new as. */
  public static final String POSITION_HEADER = "Matview-Position";

  /** The last event a change stream's reader saw, from which a stream resumes. */
  public static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";

  /**
   * The headers whose values change what the receiver answers, each signed with the request: a
   * request that adds, drops or alters one of them no longer matches its signature.
   */
  public static final List<String> SIGNED_HEADERS =
      List.of(FORWARDED_HEADER, "Accept", "Authorization", LAST_EVENT_ID_HEADER, POSITION_HEADER);

  private static final String PURPOSE = "request";

  private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

  private final PeerTrust trust;

  private final Clock clock;

  private final Duration validity;

  /** How many checks came to each {@link Outcome}, by its ordinal. */
  private final LongAdder[] checks = new LongAdder[Outcome.values().length];

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
    for (int i = 0; i < this.checks.length; i++) {
      this.checks[i] = new LongAdder();
    }
  }

  /**
   * The signature of a request, for {@link #SIGNATURE_HEADER}, or {@code null} while the secret is
   * not known: {@code pathAndQuery} exactly as sent, percent-encoding included, and {@code headers}
   * keyed by the names in {@link #SIGNED_HEADERS} as written there (one it lacks is signed absent).
   */
  public @Nullable String sign(
      String method, String pathAndQuery, byte @Nullable [] body, Map<String, String> headers) {
    HmacKey key = this.trust.key(PURPOSE);
    if (key == null) {
      return null;
    }
    return RequestSignature.sign(key, method, pathAndQuery, this.clock.millis(), body, headers::get)
        .text();
  }

  /**
   * Checks {@code signature} against a request received. A signature that is not exactly of the
   * form {@link #sign} writes, with a MAC of exactly 32 bytes, is refused before any MAC is
   * computed. {@code pathAndQuery} is exactly as received, percent-encoding included, and {@code
   * headers} join every value of a header that occurs more than once with a line feed.
   */
  public Check check(
      String method, String pathAndQuery, @Nullable String signature, HeaderValues headers) {
    Check check = checked(method, pathAndQuery, signature, headers);
    this.checks[check.outcome().ordinal()].increment();
    return check;
  }

  /**
   * The refusal of a request whose signature checked but whose body is not the one signed, counted
   * as {@link Outcome#BODY_MISMATCH}.
   */
  public Check refusedBody() {
    this.checks[Outcome.BODY_MISMATCH.ordinal()].increment();
    return Check.refused(Outcome.BODY_MISMATCH, "the body is not the one signed");
  }

  /** How many checks of signatures have come to {@code outcome} since this instance started. */
  public long checks(Outcome outcome) {
    return this.checks[outcome.ordinal()].sum();
  }

  private Check checked(
      String method, String pathAndQuery, @Nullable String signature, HeaderValues headers) {
    if (signature == null) {
      return Check.refused(
          Outcome.MALFORMED, "the request carries no " + SIGNATURE_HEADER + " header");
    }
    HmacKey key = this.trust.key(PURPOSE);
    if (key == null) {
      return Check.refused(Outcome.PENDING, "this instance does not know the peer secret yet");
    }
    RequestSignature read = RequestSignature.parse(signature);
    if (read == null) {
      return Check.refused(Outcome.MALFORMED, "the signature is not one Matview writes");
    }
    if (!read.matches(key, method, pathAndQuery, headers)) {
      return Check.refused(Outcome.MAC_MISMATCH, "the signature does not match the request");
    }
    long age = Math.abs(this.clock.millis() - read.millis());
    if (age > this.validity.toMillis()) {
      return Check.refused(
          Outcome.STALE,
          "the signature is "
              + age
              + " ms from this instance's clock, more than "
              + this.validity.toMillis()
              + " ms");
    }
    return new Check(Outcome.VALID, read.bodyDigest(), "valid");
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

  /** The values of a request's headers by name, as {@link #check} reads them. */
  @FunctionalInterface
  public interface HeaderValues {

    /** The value of the header {@code name}, or {@code null} when the request lacks it. */
    @Nullable String value(String name);
  }

  /** What the check of a signature concluded. */
  public enum Outcome {
    /** Signed by an instance of the same application. */
    VALID,
    /** No signature, or not of the form Matview writes (a MAC of any other length among them). */
    MALFORMED,
    /** Of the right form, but its MAC is not that of the request received. */
    MAC_MISMATCH,
    /** Its MAC matches, but it was made too long before or after this instance's clock. */
    STALE,
    /** The signature checks but the body is not the one signed. */
    BODY_MISMATCH,
    /** Not to be told yet: this instance does not know the secret yet. */
    PENDING
  }

  /**
   * What the check of a signature found: its outcome, the SHA-256 of the body signed, if any, and
   * why it was refused, for logs.
   */
  public record Check(Outcome outcome, @Nullable String bodyDigest, String reason) {

    static Check refused(Outcome outcome, String reason) {
      return new Check(outcome, null, reason);
    }

    /** Whether the request comes from an instance of the same application. */
    public boolean valid() {
      return this.outcome == Outcome.VALID;
    }

    /** Whether the request is valid and {@code body} is the body that was signed. */
    public boolean matchesBody(byte[] body) {
      return valid()
          && this.bodyDigest != null
          && MessageDigest.isEqual(utf8(this.bodyDigest), utf8(PeerRequests.digest(body)));
    }
  }
}
