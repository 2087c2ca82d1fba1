package dev.matview.query.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.matview.peer.PeerSecret;
import dev.matview.peer.PeerTrust;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.ViewUnavailableException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Cursors and scan positions are opaque, URL-safe, signed with a key derived from the instances'
 * secret, and refused when altered, used for another view, signed otherwise or malformed, before
 * any allocation their lengths would ask for.
 */
class CursorCodecTests {

  private static final byte[] SECRET = PeerSecret.randomMaterial();

  private final PeerTrust trust = PeerTrust.of(PeerSecret.of(SECRET));

  private final CursorCodec codec = new CursorCodec(this.trust);

  private final ScanCursor cursor =
      new ScanCursor(
          4, 6, 1234, 10, 20, new ScanPosition("customer-7".getBytes(StandardCharsets.UTF_8), 99));

  @Test
  void readsBackWhatItWrote() {
    String encoded = this.codec.encode("orders", this.cursor);
    assertThat(encoded).matches("[A-Za-z0-9_-]+");
    assertThat(this.codec.decode("orders", encoded)).isEqualTo(this.cursor);
  }

  @Test
  void readsBackACursorWithoutPosition() {
    ScanCursor start = new ScanCursor(0, 6, 1, 0, 0, null);
    assertThat(this.codec.decode("orders", this.codec.encode("orders", start))).isEqualTo(start);
  }

  @Test
  void readsACursorThatAnotherInstanceWithTheSameSecretWrote() {
    CursorCodec other = new CursorCodec(PeerTrust.of(PeerSecret.of(SECRET.clone())));
    assertThat(other.decode("orders", this.codec.encode("orders", this.cursor)))
        .isEqualTo(this.cursor);
  }

  @Test
  void refusesACursorOfAnApplicationWithAnotherSecret() {
    CursorCodec other = new CursorCodec(PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial())));
    String encoded = other.encode("orders", this.cursor);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", encoded))
        .withMessageContaining("another secret");
  }

  @Test
  void refusesAnAlteredCursor() {
    byte[] bytes = Base64.getUrlDecoder().decode(this.codec.encode("orders", this.cursor));
    bytes[4] ^= 1;
    String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", tampered))
        .withMessageContaining("altered");
  }

  @Test
  void refusesACursorOfAnotherView() {
    String encoded = this.codec.encode("orders", this.cursor);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("revenue", encoded))
        .withMessageContaining("another view");
  }

  @Test
  void refusesACursorSignedWithTheKeyDerivedFromTheApplicationIdAndViewName() throws Exception {
    byte[] key = "customer-7".getBytes(StandardCharsets.UTF_8);
    ByteBuffer body = ByteBuffer.allocate(1 + 4 + 4 + 4 + 8 + 8 + 1 + 4 + key.length + 8);
    body.put((byte) 1).putInt(0).putInt(6).putInt(1).putLong(0).putLong(0).put((byte) 1);
    body.putInt(key.length).put(key).putLong(0);
    Mac mac = Mac.getInstance("HmacSHA256");
    byte[] derivable =
        MessageDigest.getInstance("SHA-256").digest("app/orders".getBytes(StandardCharsets.UTF_8));
    mac.init(new SecretKeySpec(derivable, "HmacSHA256"));
    byte[] signed = Arrays.copyOf(body.array(), body.capacity() + 12);
    System.arraycopy(mac.doFinal(body.array()), 0, signed, body.capacity(), 12);
    String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", forged))
        .withMessageContaining("altered");
  }

  @Test
  void refusesACursorWhoseKeyLengthExceedsWhatRemainsWithoutAllocatingIt() {
    ByteBuffer body = ByteBuffer.allocate(1 + 4 + 4 + 4 + 8 + 8 + 1 + 4 + 8);
    body.put((byte) 2).putInt(0).putInt(6).putInt(1).putLong(0).putLong(0).put((byte) 1);
    body.putInt(Integer.MAX_VALUE - 8).putLong(0);
    String huge = signed(this.trust, "cursor:orders", body.array());
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", huge))
        .withMessageContaining("lengths do not add up");
    assertThat(threads.getCurrentThreadAllocatedBytes() - before).isLessThan(1024 * 1024);
  }

  @Test
  void refusesWhatIsNotACursor() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", "not a cursor!"))
        .withMessageContaining("Base64");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", "abc"))
        .withMessageContaining("too short");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", "A".repeat(200_000)))
        .withMessageContaining("longer than any");
  }

  @Test
  void writesPositionsAsSignedTokensAndReadsThemBack() {
    ScanPosition position = this.cursor.after();
    String token = this.codec.encodePosition("orders", position);
    assertThat(token).matches("[A-Za-z0-9_-]+");
    assertThat(this.codec.decodePosition("orders", token)).isEqualTo(position);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decodePosition("revenue", token))
        .withMessageContaining("another view");
    String unsigned =
        Base64.getUrlEncoder().withoutPadding().encodeToString(position.key()) + "~99";
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decodePosition("orders", unsigned));
  }

  @Test
  void saysTheViewIsUnavailableWhileTheSecretIsNotAgreed() {
    CursorCodec pending = new CursorCodec(PeerTrust.pending());
    assertThatExceptionOfType(ViewUnavailableException.class)
        .isThrownBy(() -> pending.decode("orders", this.codec.encode("orders", this.cursor)))
        .withMessageContaining("not agreed");
  }

  private static String signed(PeerTrust trust, String purpose, byte[] body) {
    byte[] signed = Arrays.copyOf(body, body.length + 16);
    System.arraycopy(trust.key(purpose).mac(body), 0, signed, body.length, 16);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
  }
}
