package dev.matview.peer;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** An HMAC-SHA256 key for one purpose, derived from the instances' shared secret. */
public final class HmacKey {

  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec key;

  /** An initialized MAC that each computation clones, cheaper than looking one up and keying it. */
  private final Mac prototype;

  HmacKey(byte[] key) {
    this.key = new SecretKeySpec(key, ALGORITHM);
    this.prototype = newMac();
  }

  /** The 32-byte HMAC-SHA256 of {@code parts}, each prefixed with its length. */
  public byte[] mac(byte[]... parts) {
    Mac mac = copyOfPrototype();
    for (byte[] part : parts) {
      mac.update(
          new byte[] {
            (byte) (part.length >>> 24),
            (byte) (part.length >>> 16),
            (byte) (part.length >>> 8),
            (byte) part.length
          });
      mac.update(part);
    }
    return mac.doFinal();
  }

  /** The length in bytes of a full HMAC-SHA256, what {@link #mac} returns. */
  public static final int MAC_LENGTH = 32;

  /** The shortest truncation of the MAC that a token may carry: 96 bits, as HMAC-SHA256-96. */
  public static final int MIN_TRUNCATED_LENGTH = 12;

  /**
   * Whether {@code mac} is the full MAC of {@code parts}: exactly {@value #MAC_LENGTH} bytes,
   * compared in constant time.
   */
  public boolean matches(byte[] mac, byte[]... parts) {
    return matchesTruncated(MAC_LENGTH, mac, parts);
  }

  /**
   * Whether {@code mac} is the MAC of {@code parts} truncated to {@code length} bytes, the fixed
   * length of the caller's token format: a MAC of any other length is refused, whatever its bytes,
   * and the bytes are compared in constant time; {@code length} lies from {@value
   * #MIN_TRUNCATED_LENGTH} to {@value #MAC_LENGTH} and is never a length taken from the input.
   */
  public boolean matchesTruncated(int length, byte[] mac, byte[]... parts) {
    if (length < MIN_TRUNCATED_LENGTH || length > MAC_LENGTH) {
      throw new IllegalArgumentException(
          "A MAC is checked at "
              + MIN_TRUNCATED_LENGTH
              + " to "
              + MAC_LENGTH
              + " bytes, not "
              + length);
    }
    if (mac.length != length) {
      return false;
    }
    byte[] actual = mac(parts);
    return MessageDigest.isEqual(
        mac, length == MAC_LENGTH ? actual : Arrays.copyOf(actual, length));
  }

  HmacKey derive(String purpose) {
    return new HmacKey(mac(purpose.getBytes(StandardCharsets.UTF_8)));
  }

  private Mac copyOfPrototype() {
    try {
      return (Mac) this.prototype.clone();
    } catch (CloneNotSupportedException ex) {
      return newMac();
    }
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(this.key);
      return mac;
    } catch (GeneralSecurityException ex) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", ex);
    }
  }

  @Override
  public String toString() {
    return "HmacKey[hidden]";
  }
}
