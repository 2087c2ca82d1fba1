package dev.matview.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * A request between instances is accepted only with a signature made with the same secret over the
 * same method, path and query, body and a timestamp within the window.
 */
class PeerRequestsTests {

  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  private final PeerTrust trust = PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial()));

  private final PeerRequests requests = requests(this.trust, NOW);

  @Test
  void acceptsARequestItSigned() {
    String signature = this.requests.sign("GET", "/views/v/partitions/1/keys?limit=5", null);
    PeerRequests.Check check =
        this.requests.check("GET", "/views/v/partitions/1/keys?limit=5", signature);
    assertThat(check.valid()).as(check.reason()).isTrue();
    assertThat(check.bodyDigest()).isNull();
  }

  @Test
  void acceptsARequestThatAnotherInstanceWithTheSameSecretSignedWithinTheWindow() {
    PeerRequests other = requests(this.trust, NOW.minusSeconds(29));
    String signature = other.sign("GET", "/views/v/keys/k", null);
    assertThat(this.requests.check("GET", "/views/v/keys/k", signature).valid()).isTrue();
  }

  @Test
  void refusesARequestSignedOutsideTheWindow() {
    String late = requests(this.trust, NOW.minusSeconds(31)).sign("GET", "/views/v/keys/k", null);
    String early = requests(this.trust, NOW.plusSeconds(31)).sign("GET", "/views/v/keys/k", null);
    assertThat(this.requests.check("GET", "/views/v/keys/k", late).reason()).contains("31000 ms");
    assertThat(this.requests.check("GET", "/views/v/keys/k", early).valid()).isFalse();
  }

  @Test
  void refusesARequestWhosePathQueryOrMethodDiffersFromTheOneSigned() {
    String signature = this.requests.sign("GET", "/views/v/partitions/1/keys?limit=5", null);
    assertThat(this.requests.check("GET", "/views/v/partitions/1/keys?limit=6", signature).valid())
        .isFalse();
    assertThat(this.requests.check("GET", "/views/v/partitions/2/keys?limit=5", signature).valid())
        .isFalse();
    assertThat(this.requests.check("POST", "/views/v/partitions/1/keys?limit=5", signature).valid())
        .isFalse();
  }

  @Test
  void refusesARequestSignedWithAnotherSecret() {
    PeerRequests other = requests(PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial())), NOW);
    String signature = other.sign("GET", "/views/v/keys/k", null);
    assertThat(this.requests.check("GET", "/views/v/keys/k", signature).reason())
        .contains("does not match");
  }

  @Test
  void refusesWhatIsNoSignature() {
    for (String forged : new String[] {"", "1", "v1.1.none.", "v1.x.none.AAAA", "v2.1.none.AA"}) {
      assertThat(this.requests.check("GET", "/views", forged).valid()).as(forged).isFalse();
    }
    assertThat(this.requests.check("GET", "/views", null).reason())
        .contains("no Matview-Signature");
  }

  @Test
  void signsTheBodyOfAPostSoThatAnotherBodyDoesNotMatch() {
    byte[] body = "{\"keys\":[\"a\"]}".getBytes(StandardCharsets.UTF_8);
    String signature = this.requests.sign("POST", "/views/v/batch", body);
    PeerRequests.Check check = this.requests.check("POST", "/views/v/batch", signature);
    assertThat(check.valid()).isTrue();
    assertThat(check.matchesBody(body)).isTrue();
    assertThat(check.matchesBody("{\"keys\":[\"b\"]}".getBytes(StandardCharsets.UTF_8))).isFalse();
  }

  @Test
  void neitherSignsNorAcceptsWhileTheSecretIsNotKnown() {
    PeerRequests pending = requests(PeerTrust.pending(), NOW);
    assertThat(pending.sign("GET", "/views", null)).isNull();
    String signature = this.requests.sign("GET", "/views", null);
    assertThat(pending.check("GET", "/views", signature).valid()).isFalse();
  }

  @Test
  void refusesASecretShorterThan256Bits() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> PeerSecret.of("short"))
        .withMessageContaining("at least 32 bytes");
    assertThat(PeerSecret.of("x".repeat(32)).toString()).doesNotContain("x");
  }

  private static PeerRequests requests(PeerTrust trust, Instant now) {
    return new PeerRequests(trust, Clock.fixed(now, ZoneOffset.UTC), Duration.ofSeconds(30));
  }
}
