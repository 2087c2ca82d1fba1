package dev.matview.position;

import dev.matview.peer.HmacKey;
import dev.matview.peer.PeerTrust;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * Writes a {@link ViewPosition} as a compact, URL-safe token that the instances of one application
 * sign with a key derived from their shared secret, and reads it back: a token that is malformed,
 * too long, of another application or view, or whose signature does not match is refused with a
 * message that says which.
 *
 * <p>The token is Base64url without padding of: a version byte, a 4-byte checksum of the
 * application id, the view's name, the number of partitions, then each partition (as the step from
 * the one before) and its offset as variable-length integers ({@link TokenBytes}), and 12 bytes of
 * HMAC-SHA256 over the application id and all that precedes.
 */
public final class PositionTokens {

  /** The HTTP header that carries a position, on answers and on requests that send one back. */
  public static final String HEADER = "Matview-Position";

  /**
   * The longest token read, in characters: about a thousand partitions, as much as a request header
   * may carry on a server's default limits.
   */
  public static final int MAX_LENGTH = 8_192;

  private static final byte VERSION = 1;

  private static final int MAC_BYTES = 12;

  private static final String PURPOSE = "matview-positions";

  /** How many tokens written and read are kept, each way, before they are forgotten. */
  private static final int REMEMBERED = 10_000;

  private final PeerTrust trust;

  private final String applicationId;

  private final byte[] applicationBytes;

  private final int applicationChecksum;

  /** Tokens written, by position: the answers of a partition that did not move share one. */
  private final Map<ViewPosition, String> written = new ConcurrentHashMap<>();

  /** Tokens read and verified, by view and text: a client sends the same one back many times. */
  private final Map<String, ViewPosition> verified = new ConcurrentHashMap<>();

  private volatile @Nullable HmacKey cachedFor;

  /** Tokens of the application {@code applicationId}, signed with a key {@code trust} derives. */
  public PositionTokens(PeerTrust trust, String applicationId) {
    this.trust = trust;
    this.applicationId = applicationId;
    this.applicationBytes = applicationId.getBytes(StandardCharsets.UTF_8);
    CRC32 crc = new CRC32();
    crc.update(this.applicationBytes);
    this.applicationChecksum = (int) crc.getValue();
  }

  /** The token of {@code position}, or {@code null} while the instances' secret is not known. */
  public @Nullable String write(ViewPosition position) {
    HmacKey key = this.trust.key(PURPOSE);
    if (key == null) {
      return null;
    }
    forgetOtherKeys(key);
    String known = this.written.get(position);
    if (known != null) {
      return known;
    }
    String token = sign(key, position);
    remember(this.written, position, token);
    return token;
  }

  private String sign(HmacKey key, ViewPosition position) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32 + position.size() * 6);
    out.write(VERSION);
    TokenBytes.writeInt(out, this.applicationChecksum);
    TokenBytes.writeString(out, position.view());
    TokenBytes.writeVarLong(out, position.size());
    int previous = 0;
    for (int i = 0; i < position.size(); i++) {
      TokenBytes.writeVarLong(out, position.partitionAt(i) - previous);
      TokenBytes.writeVarLong(out, position.offsetAt(i));
      previous = position.partitionAt(i);
    }
    byte[] body = out.toByteArray();
    byte[] mac = key.mac(this.applicationBytes, body);
    byte[] token = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(mac, 0, token, body.length, MAC_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
  }

  /**
   * The position that {@code token} tells of {@code view}; throws {@link PositionTokenException}
   * when it is malformed, too long, of another application or view, or not signed by an instance of
   * this application.
   */
  public ViewPosition read(String view, String token) {
    HmacKey key = this.trust.key(PURPOSE);
    if (key != null) {
      forgetOtherKeys(key);
    }
    ViewPosition known = this.verified.get(token);
    if (known != null && known.view().equals(view)) {
      return known;
    }
    ViewPosition position = verify(view, token);
    remember(this.verified, token, position);
    return position;
  }

  /** Forgets what was written and read with another key than {@code key}, an earlier secret's. */
  private void forgetOtherKeys(HmacKey key) {
    if (this.cachedFor != key) {
      this.written.clear();
      this.verified.clear();
      this.cachedFor = key;
    }
  }

  /**
   * Keeps {@code value} for {@code key}, forgetting every entry first once {@link #REMEMBERED} are
   * kept: a bound on memory, at the cost of signing or verifying again.
   */
  private static <K, V> void remember(Map<K, V> cache, K key, V value) {
    if (cache.size() >= REMEMBERED) {
      cache.clear();
    }
    cache.put(key, value);
  }

  private ViewPosition verify(String view, String token) {
    if (token.length() > MAX_LENGTH) {
      throw new PositionTokenException(
          "The position token is "
              + token.length()
              + " characters long, more than the "
              + MAX_LENGTH
              + " any position of a view takes; send back the Matview-Position header of an answer"
              + " as it came");
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException ex) {
      throw TokenBytes.malformed("it is not Base64url text");
    }
    if (bytes.length < 1 + Integer.BYTES + MAC_BYTES + 2) {
      throw TokenBytes.malformed("it is too short");
    }
    if (bytes[0] != VERSION) {
      throw TokenBytes.malformed("its version " + bytes[0] + " is not one this instance reads");
    }
    TokenBytes in = new TokenBytes(bytes, bytes.length - MAC_BYTES);
    in.skip(1);
    if (in.readInt() != this.applicationChecksum) {
      throw new PositionTokenException(
          "The position token is of another application than '"
              + this.applicationId
              + "'; send a position that this application's views answered");
    }
    String tokenView = in.readString();
    if (!tokenView.equals(view)) {
      throw new PositionTokenException(
          "The position token is of view '"
              + tokenView
              + "', not of '"
              + view
              + "'; send each view the position its own answers carried");
    }
    HmacKey key = this.trust.key(PURPOSE);
    byte[] body = Arrays.copyOf(bytes, bytes.length - MAC_BYTES);
    byte[] mac = Arrays.copyOfRange(bytes, bytes.length - MAC_BYTES, bytes.length);
    if (key == null || !key.matchesTruncated(MAC_BYTES, mac, this.applicationBytes, body)) {
      throw new PositionTokenException(
          "The position token's signature does not match: it was changed, or signed by an"
              + " instance that does not share this application's secret");
    }
    int count = in.readCount();
    Map<Integer, Long> offsets = new HashMap<>();
    int partition = 0;
    for (int i = 0; i < count; i++) {
      partition = Math.addExact(partition, in.readCount());
      offsets.put(partition, in.readVarLong());
    }
    if (!in.atEnd()) {
      throw TokenBytes.malformed("bytes follow its last partition");
    }
    return ViewPosition.of(view, offsets);
  }
}
