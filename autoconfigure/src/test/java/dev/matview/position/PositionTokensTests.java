package dev.matview.position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.matview.peer.PeerSecret;
import dev.matview.peer.PeerTrust;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PositionTokensTests {

  private static final byte[] SECRET = PeerSecret.randomMaterial();

  private final PositionTokens tokens = tokens("shop", SECRET);

  private static PositionTokens tokens(String application, byte[] secret) {
    return new PositionTokens(PeerTrust.of(PeerSecret.of(secret.clone())), application);
  }

  @Test
  void readsBackWhatItWroteForOnePartitionAndForMany() {
    ViewPosition one = ViewPosition.of("totals", 3, 1042);
    assertThat(this.tokens.read("totals", write(one))).isEqualTo(one);
    Map<Integer, Long> offsets = new HashMap<>();
    for (int partition = 0; partition < 512; partition += 3) {
      offsets.put(partition, 1_000_000_000_000L + partition);
    }
    ViewPosition many = ViewPosition.of("totals", offsets);
    String token = write(many);
    assertThat(this.tokens.read("totals", token)).isEqualTo(many);
    assertThat(token).matches("[A-Za-z0-9_-]+").hasSizeLessThan(PositionTokens.MAX_LENGTH);
  }

  @Test
  void aTokenOfOnePartitionIsCompact() {
    assertThat(write(ViewPosition.of("orders-per-customer", 7, 123_456_789))).hasSizeLessThan(72);
  }

  @Test
  void positionsMergeByTheLargerOffsetOfEachPartition() {
    ViewPosition merged =
        ViewPosition.of("totals", Map.of(0, 5L, 1, 9L))
            .merge(ViewPosition.of("totals", Map.of(1, 4L, 2, 7L)));
    assertThat(merged).isEqualTo(ViewPosition.of("totals", Map.of(0, 5L, 1, 9L, 2, 7L)));
    assertThat(merged.offset(3)).isEqualTo(-1);
    assertThatThrownBy(() -> merged.merge(ViewPosition.empty("other")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesATokenOfAnotherView() {
    String token = write(ViewPosition.of("totals", 0, 1));
    assertThatThrownBy(() -> this.tokens.read("counts", token))
        .isInstanceOf(PositionTokenException.class)
        .hasMessageContaining("of view 'totals', not of 'counts'");
  }

  @Test
  void refusesATokenOfAnotherApplication() {
    String token = tokens("billing", SECRET).write(ViewPosition.of("totals", 0, 1));
    assertThatThrownBy(() -> this.tokens.read("totals", token))
        .isInstanceOf(PositionTokenException.class)
        .hasMessageContaining("another application than 'shop'");
  }

  @Test
  void refusesATokenSignedWithAnotherSecret() {
    String token = tokens("shop", PeerSecret.randomMaterial()).write(ViewPosition.of("t", 0, 1));
    assertThatThrownBy(() -> this.tokens.read("t", token))
        .isInstanceOf(PositionTokenException.class)
        .hasMessageContaining("signature does not match");
  }

  @Test
  void refusesATokenWhoseOffsetWasChanged() {
    byte[] bytes = Base64.getUrlDecoder().decode(write(ViewPosition.of("totals", 0, 1000)));
    int offsetByte = bytes.length - 12 - 1;
    bytes[offsetByte] = (byte) (bytes[offsetByte] + 1);
    String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    assertThatThrownBy(() -> this.tokens.read("totals", forged))
        .isInstanceOf(PositionTokenException.class)
        .hasMessageContaining("signature does not match");
  }

  @Test
  void refusesMalformedTruncatedAndOversizedTokens() {
    String token = write(ViewPosition.of("totals", 2, 77));
    assertThatThrownBy(() -> this.tokens.read("totals", "not a token!"))
        .hasMessageContaining("not Base64url");
    assertThatThrownBy(() -> this.tokens.read("totals", token.substring(0, 6)))
        .hasMessageContaining("malformed");
    assertThatThrownBy(() -> this.tokens.read("totals", token.substring(0, token.length() - 4)))
        .isInstanceOf(PositionTokenException.class);
    assertThatThrownBy(() -> this.tokens.read("totals", "A".repeat(PositionTokens.MAX_LENGTH + 1)))
        .hasMessageContaining("characters long");
    assertThatThrownBy(() -> this.tokens.read("totals", "B" + token.substring(1)))
        .isInstanceOf(PositionTokenException.class);
  }

  @Test
  void readsAndWritesATokenOnceAndForgetsBothWhenTheSecretChanges() {
    PeerTrust trust = PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial()));
    PositionTokens changing = new PositionTokens(trust, "shop");
    ViewPosition position = ViewPosition.of("totals", 1, 99);
    String token = changing.write(position);
    assertThat(token).isNotNull();
    assertThat(changing.write(ViewPosition.of("totals", 1, 99))).isSameAs(token);
    assertThat(changing.read("totals", token)).isEqualTo(position);
    assertThat(changing.read("totals", token)).isEqualTo(position);
    assertThatThrownBy(() -> changing.read("other", token)).hasMessageContaining("of view");
    trust.establish(PeerSecret.of(PeerSecret.randomMaterial()));
    assertThatThrownBy(() -> changing.read("totals", token))
        .hasMessageContaining("signature does not match");
    assertThat(changing.write(position)).isNotEqualTo(token);
  }

  @Test
  void writesNothingWhileTheInstancesShareNoSecretYet() {
    PositionTokens pending = new PositionTokens(PeerTrust.pending(), "shop");
    assertThat(pending.write(ViewPosition.of("totals", 0, 1))).isNull();
    String token = write(ViewPosition.of("totals", 0, 1));
    assertThatThrownBy(() -> pending.read("totals", token))
        .isInstanceOf(PositionTokenException.class);
  }

  @Test
  void readsInputRecordsAsProducersNameThemAndSaysHowWhenNot() {
    assertThat(InputRecord.parse("orders:3:1042")).isEqualTo(new InputRecord("orders", 3, 1042));
    assertThat(InputRecord.parse("my:topic:0:7")).isEqualTo(new InputRecord("my:topic", 0, 7));
    assertThatThrownBy(() -> InputRecord.parse("orders:3"))
        .hasMessageContaining("<topic>:<partition>:<offset>");
    assertThatThrownBy(() -> InputRecord.parse("orders:x:1")).hasMessageContaining("orders:3:1042");
    assertThatThrownBy(() -> InputRecord.parse("orders:1:-5")).hasMessageContaining("0 or more");
  }

  private String write(ViewPosition position) {
    String token = this.tokens.write(position);
    assertThat(token).isNotNull();
    return token;
  }
}
