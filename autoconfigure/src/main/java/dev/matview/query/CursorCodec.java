package dev.matview.query;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes scan cursors as opaque URL-safe strings and reads them back, refusing cursors that were
 * altered or issued for another view. The checksum guards integrity, not secrecy.
 */
public final class CursorCodec {

  private static final byte VERSION = 1;

  private static final int MAC_BYTES = 12;

  private final String applicationId;

  /** A codec for the views of the application {@code applicationId}. */
  public CursorCodec(String applicationId) {
    this.applicationId = applicationId;
  }

  /** The cursor as an opaque, URL-safe string. */
  public String encode(String view, ScanCursor cursor) {
    ScanPosition after = cursor.after();
    int keyLength = after != null ? after.key().length : 0;
    ByteBuffer payload = ByteBuffer.allocate(1 + 4 + 4 + 4 + 8 + 8 + 1 + 4 + keyLength + 8);
    payload.put(VERSION).putInt(cursor.partition()).putInt(cursor.partitionCount());
    payload.putInt(cursor.boundsHash()).putLong(cursor.rangeFrom()).putLong(cursor.rangeTo());
    payload.put((byte) (after != null ? 1 : 0));
    payload.putInt(keyLength);
    if (after != null) {
      payload.put(after.key()).putLong(after.windowStart());
    } else {
      payload.putLong(0);
    }
    byte[] body = payload.array();
    byte[] signed = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(mac(view, body), 0, signed, body.length, MAC_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
  }

  /**
   * The cursor that {@code encoded} stands for.
   *
   * @throws IllegalArgumentException saying why {@code encoded} is not a cursor of {@code view}
   */
  public ScanCursor decode(String view, String encoded) {
    byte[] signed;
    try {
      signed = Base64.getUrlDecoder().decode(encoded);
    } catch (IllegalArgumentException ex) {
      throw new IllegalArgumentException("the cursor is not URL-safe Base64", ex);
    }
    if (signed.length <= MAC_BYTES) {
      throw new IllegalArgumentException("the cursor is too short to be one this service issued");
    }
    byte[] body = Arrays.copyOf(signed, signed.length - MAC_BYTES);
    byte[] mac = Arrays.copyOfRange(signed, body.length, signed.length);
    if (!MessageDigest.isEqual(mac, Arrays.copyOf(mac(view, body), MAC_BYTES))) {
      throw new IllegalArgumentException(
          "the cursor was altered or issued for another view; start the scan without a cursor");
    }
    try {
      ByteBuffer payload = ByteBuffer.wrap(body);
      if (payload.get() != VERSION) {
        throw new IllegalArgumentException("the cursor comes from another version of Matview");
      }
      int partition = payload.getInt();
      int partitionCount = payload.getInt();
      int boundsHash = payload.getInt();
      long rangeFrom = payload.getLong();
      long rangeTo = payload.getLong();
      boolean hasPosition = payload.get() == 1;
      byte[] key = new byte[payload.getInt()];
      payload.get(key);
      long windowStart = payload.getLong();
      return new ScanCursor(
          partition,
          partitionCount,
          boundsHash,
          rangeFrom,
          rangeTo,
          hasPosition ? new ScanPosition(key, windowStart) : null);
    } catch (BufferUnderflowException | NegativeArraySizeException ex) {
      throw new IllegalArgumentException("the cursor is truncated", ex);
    }
  }

  private byte[] mac(String view, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      byte[] secret = (this.applicationId + "/" + view).getBytes(StandardCharsets.UTF_8);
      mac.init(
          new SecretKeySpec(MessageDigest.getInstance("SHA-256").digest(secret), "HmacSHA256"));
      return mac.doFinal(body);
    } catch (GeneralSecurityException ex) {
      throw new IllegalStateException("HmacSHA256 is not available", ex);
    }
  }
}
