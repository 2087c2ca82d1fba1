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

  /**
   * Whether {@code expected} equals the first {@code expected.length} bytes of the MAC of {@code
   * parts}, compared in constant time.
   */
  public boolean matches(byte[] expected, byte[]... parts) {
    byte[] actual = mac(parts);
    return expected.length > 0
        && expected.length <= actual.length
        && MessageDigest.isEqual(expected, Arrays.copyOf(actual, expected.length));
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
