package dev.matview.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Forwarded paths carry every segment and parameter exactly, whatever characters they hold. */
class PeerPathTests {

  @Test
  void encodesEverySegmentAndParameterButUnreservedCharacters() {
    String key = "a/b%c+d;e f?g#h&i=j~k.l_m-n\u00fc";
    String path =
        PeerPath.of("sales per shop", "keys", key, "windows")
            .param("to", Instant.parse("+10000-01-01T00:00:00Z"))
            .param("from", null)
            .param("a&b", "c=d")
            .toString();
    assertThat(path)
        .isEqualTo(
            "/sales%20per%20shop/keys/a%2Fb%25c%2Bd%3Be%20f%3Fg%23h%26i%3Dj~k.l_m-n%C3%BC/windows"
                + "?to=%2B10000-01-01T00%3A00%3A00Z&a%26b=c%3Dd");
    URI uri = URI.create("http://localhost:8080" + path);
    assertThat(uri.getPath())
        .isEqualTo("/sales per shop/keys/a/b%c+d;e f?g#h&i=j~k.l_m-n\u00fc/windows");
    assertThat(URLDecoder.decode(uri.getRawQuery().split("&")[0], StandardCharsets.UTF_8))
        .isEqualTo("to=+10000-01-01T00:00:00Z");
  }

  @Test
  void keepsDotSegmentsFromBeingReadAsRelativePaths() {
    assertThat(PeerPath.of("v", "keys", "..").toString()).isEqualTo("/v/keys/%2E%2E");
    assertThat(PeerPath.of("v", "keys", ".").toString()).isEqualTo("/v/keys/%2E");
  }

  @Test
  void carriesAKeyInThePathWhenEveryServerTakesItThereElseInTheQuery() {
    assertThat(PeerPath.ofKey("v", "a;b c+d").toString()).isEqualTo("/v/keys/a%3Bb%20c%2Bd");
    assertThat(PeerPath.ofKey("v", "k", "windows").param("from", "x").toString())
        .isEqualTo("/v/keys/k/windows?from=x");
    assertThat(PeerPath.ofKey("v", "..").toString()).isEqualTo("/v/key?key=..");
    assertThat(PeerPath.ofKey("v", ".").toString()).isEqualTo("/v/key?key=.");
    assertThat(PeerPath.ofKey("v", "").toString()).isEqualTo("/v/key?key=");
    assertThat(PeerPath.ofKey("v", "a/b\\c", "windows").param("from", "x").toString())
        .isEqualTo("/v/key/windows?key=a%2Fb%5Cc&from=x");
    assertThat(PeerPath.ofKey("v", "100%").toString()).isEqualTo("/v/key?key=100%25");
    assertThat(PeerPath.ofKey("v", "a\u0000b").toString()).isEqualTo("/v/key?key=a%00b");
    assertThat(PeerPath.ofKey("v", "..").query("?position=p&allowStale=true").toString())
        .isEqualTo("/v/key?key=..&position=p&allowStale=true");
    assertThat(PeerPath.ofKey("v", "k").query("?position=p").toString())
        .isEqualTo("/v/keys/k?position=p");
    assertThat(PeerPath.ofKey("v", "k").query("").toString()).isEqualTo("/v/keys/k");
  }
}
