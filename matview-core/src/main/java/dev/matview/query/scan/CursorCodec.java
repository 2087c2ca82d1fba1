package dev.matview.query.scan;

import dev.matview.peer.HmacKey;
import dev.matview.peer.PeerTrust;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.ViewUnavailableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Writes scan cursors, and the positions in a partition that instances pass each other, as opaque
 * URL-safe strings and reads them back. Each carries an HMAC-SHA256 with a key derived per view
 * from the secret the instances share, so callers can neither forge nor alter them; every length
 * read is checked against what remains before anything is allocated.
 */
public final class CursorCodec {

  private static final byte VERSION = 2;

  private static final int MAC_BYTES = 16;

  /** Version, partition, partition count, bounds hash, range, position flag, key length. */
  private static final int CURSOR_HEADER = 1 + 4 + 4 + 4 + 8 + 8 + 1 + 4;

  /** Version and window start. */
  private static final int POSITION_HEADER = 1 + 8;

  private final PeerTrust trust;

  /** A codec whose keys derive from the secret of {@code trust}. */
  public CursorCodec(PeerTrust trust) {
    this.trust = trust;
  }

  /** The cursor as an opaque, URL-safe string. */
  public String encode(String view, ScanCursor cursor) {
    ScanPosition after = cursor.after();
    byte[] key = after != null ? after.key() : new byte[0];
    ByteBuffer body = ByteBuffer.allocate(CURSOR_HEADER + key.length + 8);
    body.put(VERSION).putInt(cursor.partition()).putInt(cursor.partitionCount());
    body.putInt(cursor.boundsHash()).putLong(cursor.rangeFrom()).putLong(cursor.rangeTo());
    body.put((byte) (after != null ? 1 : 0)).putInt(key.length).put(key);
    body.putLong(after != null ? after.windowStart() : 0);
    return sign(key(view, "cursor"), body.array());
  }

  /** The cursor {@code encoded} stands for; an IllegalArgumentException says why not. */
  public ScanCursor decode(String view, String encoded) {
    ByteBuffer body =
        verified(key(view, "cursor"), encoded, CURSOR_HEADER + 8, "cursor", "another view");
    if (body.get() != VERSION) {
      throw new IllegalArgumentException("the cursor comes from another version of Matview");
    }
    int partition = body.getInt();
    int partitionCount = body.getInt();
    int boundsHash = body.getInt();
    long rangeFrom = body.getLong();
    long rangeTo = body.getLong();
    byte hasPosition = body.get();
    int keyLength = body.getInt();
    if (hasPosition < 0 || hasPosition > 1 || keyLength < 0 || keyLength != body.remaining() - 8) {
      throw new IllegalArgumentException("the cursor's lengths do not add up");
    }
    byte[] key = new byte[keyLength];
    body.get(key);
    long windowStart = body.getLong();
    return new ScanCursor(
        partition,
        partitionCount,
        boundsHash,
        rangeFrom,
        rangeTo,
        hasPosition == 1 ? new ScanPosition(key, windowStart) : null);
  }

  /** The position as an opaque, URL-safe token, as instances pass it to each other. */
  public String encodePosition(String view, ScanPosition position) {
    ByteBuffer body = ByteBuffer.allocate(POSITION_HEADER + position.key().length);
    body.put(VERSION).putLong(position.windowStart()).put(position.key());
    return sign(key(view, "position"), body.array());
  }

  /** The position {@code token} stands for; an IllegalArgumentException says why not. */
  public ScanPosition decodePosition(String view, String token) {
    ByteBuffer body =
        verified(key(view, "position"), token, POSITION_HEADER, "position", "another view");
    if (body.get() != VERSION) {
      throw new IllegalArgumentException("the position comes from another version of Matview");
    }
    long windowStart = body.getLong();
    byte[] key = new byte[body.remaining()];
    body.get(key);
    return new ScanPosition(key, windowStart);
  }

  private HmacKey key(String view, String kind) {
    HmacKey key = this.trust.key(kind + ":" + view);
    if (key == null) {
      throw new ViewUnavailableException(
          view,
          null,
          null,
          "This instance has not agreed on a secret with the other instances yet; Kafka Streams"
              + " has not started",
          Refusal.REBALANCE_RETRY);
    }
    return key;
  }

  private static String sign(HmacKey key, byte[] body) {
    byte[] signed = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(key.mac(body), 0, signed, body.length, MAC_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
  }

  /** The body of {@code encoded} once its MAC is checked, refused before any other allocation. */
  private static ByteBuffer verified(
      HmacKey key, String encoded, int minBody, String what, String other) {
    if (encoded.length() > (minBody + MAC_BYTES) * 2 + 65536) {
      throw new IllegalArgumentException("the " + what + " is longer than any Matview issues");
    }
    byte[] signed;
    try {
      signed = Base64.getUrlDecoder().decode(encoded.getBytes(StandardCharsets.ISO_8859_1));
    } catch (IllegalArgumentException ex) {
      throw new IllegalArgumentException("the " + what + " is not URL-safe Base64", ex);
    }
    if (signed.length < minBody + MAC_BYTES) {
      throw new IllegalArgumentException(
          "the " + what + " is too short to be one this service issued");
    }
    byte[] body = Arrays.copyOf(signed, signed.length - MAC_BYTES);
    byte[] mac = Arrays.copyOfRange(signed, body.length, signed.length);
    if (!key.matchesTruncated(MAC_BYTES, mac, body)) {
      throw new IllegalArgumentException(
          "the "
              + what
              + " was altered, issued for "
              + other
              + " or by an application with another secret"
              + (what.equals("cursor") ? "; start the scan without a cursor" : ""));
    }
    return ByteBuffer.wrap(body);
  }
}
