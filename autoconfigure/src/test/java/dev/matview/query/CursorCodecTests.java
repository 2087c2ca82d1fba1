package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Cursors are opaque, URL-safe and refused when altered or used for another view. */
class CursorCodecTests {

  private final CursorCodec codec = new CursorCodec("app");

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
  void refusesWhatIsNotACursor() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", "not a cursor!"))
        .withMessageContaining("Base64");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.codec.decode("orders", "abc"))
        .withMessageContaining("too short");
  }

  @Test
  void writesPositionsAsTokensAndReadsThemBack() {
    ScanPosition position = this.cursor.after();
    assertThat(ScanPosition.fromToken(position.toToken())).isEqualTo(position);
    assertThatIllegalArgumentException().isThrownBy(() -> ScanPosition.fromToken("no-separator"));
  }
}
