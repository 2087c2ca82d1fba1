package dev.matview.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.matview.peer.PeerRequests.Outcome;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A request between instances is accepted only with a signature made with the same secret over the
 * same method, path and query, body and a timestamp within the window.
 */
class PeerRequestsTests {

  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  private static final Map<String, String> MARKED = Map.of(PeerRequests.FORWARDED_HEADER, "1");

  private final PeerTrust trust = PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial()));

  private final PeerRequests requests = requests(this.trust, NOW);

  @Test
  void acceptsARequestItSigned() {
    String signature =
        this.requests.sign("GET", "/views/v/partitions/1/keys?limit=5", null, MARKED);
    PeerRequests.Check check =
        this.requests.check("GET", "/views/v/partitions/1/keys?limit=5", signature, MARKED::get);
    assertThat(check.valid()).as(check.reason()).isTrue();
    assertThat(check.bodyDigest()).isNull();
  }

  @Test
  void acceptsARequestThatAnotherInstanceWithTheSameSecretSignedWithinTheWindow() {
    PeerRequests other = requests(this.trust, NOW.minusSeconds(29));
    String signature = other.sign("GET", "/views/v/keys/k", null, MARKED);
    assertThat(this.requests.check("GET", "/views/v/keys/k", signature, MARKED::get).valid())
        .isTrue();
  }

  @Test
  void refusesARequestSignedOutsideTheWindow() {
    String late =
        requests(this.trust, NOW.minusSeconds(31)).sign("GET", "/views/v/keys/k", null, MARKED);
    String early =
        requests(this.trust, NOW.plusSeconds(31)).sign("GET", "/views/v/keys/k", null, MARKED);
    assertThat(this.requests.check("GET", "/views/v/keys/k", late, MARKED::get).reason())
        .contains("31000 ms");
    assertThat(this.requests.check("GET", "/views/v/keys/k", early, MARKED::get).valid()).isFalse();
  }

  @Test
  void refusesARequestWhosePathQueryOrMethodDiffersFromTheOneSigned() {
    String signature =
        this.requests.sign("GET", "/views/v/partitions/1/keys?limit=5", null, MARKED);
    assertThat(
            this.requests
                .check("GET", "/views/v/partitions/1/keys?limit=6", signature, MARKED::get)
                .valid())
        .isFalse();
    assertThat(
            this.requests
                .check("GET", "/views/v/partitions/2/keys?limit=5", signature, MARKED::get)
                .valid())
        .isFalse();
    assertThat(
            this.requests
                .check("POST", "/views/v/partitions/1/keys?limit=5", signature, MARKED::get)
                .valid())
        .isFalse();
  }

  @Test
  void refusesARequestSignedWithAnotherSecret() {
    PeerRequests other = requests(PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial())), NOW);
    String signature = other.sign("GET", "/views/v/keys/k", null, MARKED);
    assertThat(this.requests.check("GET", "/views/v/keys/k", signature, MARKED::get).reason())
        .contains("does not match");
  }

  @Test
  void refusesWhatIsNoSignature() {
    for (String forged : new String[] {"", "1", "v1.1.none.", "v1.x.none.AAAA", "v2.1.none.AA"}) {
      assertThat(this.requests.check("GET", "/views", forged, MARKED::get).valid())
          .as(forged)
          .isFalse();
    }
    assertThat(this.requests.check("GET", "/views", null, MARKED::get).reason())
        .contains("no Matview-Signature");
  }

  @Test
  void signsTheBodyOfAPostSoThatAnotherBodyDoesNotMatch() {
    byte[] body = "{\"keys\":[\"a\"]}".getBytes(StandardCharsets.UTF_8);
    String signature = this.requests.sign("POST", "/views/v/batch", body, MARKED);
    PeerRequests.Check check =
        this.requests.check("POST", "/views/v/batch", signature, MARKED::get);
    assertThat(check.valid()).isTrue();
    assertThat(check.matchesBody(body)).isTrue();
    assertThat(check.matchesBody("{\"keys\":[\"b\"]}".getBytes(StandardCharsets.UTF_8))).isFalse();
  }

  @Test
  void neitherSignsNorAcceptsWhileTheSecretIsNotKnown() {
    PeerRequests pending = requests(PeerTrust.pending(), NOW);
    assertThat(pending.sign("GET", "/views", null, MARKED)).isNull();
    String signature = this.requests.sign("GET", "/views", null, MARKED);
    assertThat(pending.check("GET", "/views", signature, MARKED::get).valid()).isFalse();
  }

  @Test
  void refusesEveryTruncationOfAValidMacFromNoByteToOneShortOfTheFullLength() {
    String signature = this.requests.sign("GET", "/views/v/keys/k", null, MARKED);
    byte[] mac = macOf(signature);
    assertThat(mac).hasSize(HmacKey.MAC_LENGTH);
    for (int length = 0; length < mac.length; length++) {
      String truncated = withMac(signature, Arrays.copyOf(mac, length));
      PeerRequests.Check check =
          this.requests.check("GET", "/views/v/keys/k", truncated, MARKED::get);
      assertThat(check.valid()).as("a MAC of %d bytes", length).isFalse();
      assertThat(check.outcome()).as("a MAC of %d bytes", length).isEqualTo(Outcome.MALFORMED);
    }
    byte[] longer = Arrays.copyOf(mac, mac.length + 1);
    assertThat(
            this.requests
                .check("GET", "/views/v/keys/k", withMac(signature, longer), MARKED::get)
                .valid())
        .isFalse();
    assertThat(this.requests.check("GET", "/views/v/keys/k", signature, MARKED::get).valid())
        .isTrue();
  }

  @Test
  void refusesAMacWithAnyOneBitFlipped() {
    String signature = this.requests.sign("GET", "/views/v/keys/k", null, MARKED);
    byte[] mac = macOf(signature);
    for (int bit = 0; bit < mac.length * 8; bit++) {
      byte[] flipped = mac.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));
      PeerRequests.Check check =
          this.requests.check("GET", "/views/v/keys/k", withMac(signature, flipped), MARKED::get);
      assertThat(check.outcome()).as("bit %d flipped", bit).isEqualTo(Outcome.MAC_MISMATCH);
    }
  }

  @Test
  void refusesAGoodSignatureOnAnotherPathBodyOrTimestamp() {
    byte[] body = "{\"keys\":[\"a\"]}".getBytes(StandardCharsets.UTF_8);
    String signature = this.requests.sign("POST", "/views/v/batch", body, MARKED);
    assertThat(this.requests.check("POST", "/views/w/batch", signature, MARKED::get).outcome())
        .isEqualTo(Outcome.MAC_MISMATCH);
    String[] parts = signature.split("\\.");
    String otherDigest =
        String.join(
            ".",
            parts[0],
            parts[1],
            PeerRequests.digest("{}".getBytes(StandardCharsets.UTF_8)),
            parts[3]);
    assertThat(this.requests.check("POST", "/views/v/batch", otherDigest, MARKED::get).outcome())
        .isEqualTo(Outcome.MAC_MISMATCH);
    String otherTime =
        String.join(".", parts[0], Long.toString(Long.parseLong(parts[1]) + 1), parts[2], parts[3]);
    assertThat(this.requests.check("POST", "/views/v/batch", otherTime, MARKED::get).outcome())
        .isEqualTo(Outcome.MAC_MISMATCH);
  }

  @Test
  void refusesARequestThatAddsDropsOrAltersASignedHeader() {
    Map<String, String> sent = new LinkedHashMap<>(MARKED);
    sent.put("Accept", "text/event-stream");
    sent.put(PeerRequests.LAST_EVENT_ID_HEADER, "token.5");
    String signature = this.requests.sign("GET", "/views/v/keys/k/changes", null, sent);
    assertThat(this.requests.check("GET", "/views/v/keys/k/changes", signature, sent::get).valid())
        .isTrue();
    for (String header : PeerRequests.SIGNED_HEADERS) {
      Map<String, String> altered = new LinkedHashMap<>(sent);
      altered.merge(header, "x", (value, extra) -> value + extra);
      assertThat(
              this.requests
                  .check("GET", "/views/v/keys/k/changes", signature, altered::get)
                  .valid())
          .as("%s altered or added", header)
          .isFalse();
      if (sent.containsKey(header)) {
        Map<String, String> dropped = new LinkedHashMap<>(sent);
        dropped.remove(header);
        assertThat(
                this.requests
                    .check("GET", "/views/v/keys/k/changes", signature, dropped::get)
                    .valid())
            .as("%s dropped", header)
            .isFalse();
      }
    }
    Map<String, String> relayed = Map.of(PeerRequests.FORWARDED_HEADER, PeerRequests.RELAYED);
    assertThat(
            this.requests
                .check(
                    "GET",
                    "/views/v/keys/k",
                    this.requests.sign("GET", "/views/v/keys/k", null, MARKED),
                    relayed::get)
                .valid())
        .as("a forward's signature on a relay")
        .isFalse();
  }

  @Test
  void countsEveryCheckByItsOutcome() {
    String signature = this.requests.sign("GET", "/views/v/keys/k", null, MARKED);
    this.requests.check("GET", "/views/v/keys/k", signature, MARKED::get);
    this.requests.check("GET", "/views/v/keys/j", signature, MARKED::get);
    this.requests.check("GET", "/views/v/keys/k", "v2.1.none.AA", MARKED::get);
    this.requests.check(
        "GET",
        "/views/v/keys/k",
        requests(this.trust, NOW.minusSeconds(60)).sign("GET", "/views/v/keys/k", null, MARKED),
        MARKED::get);
    this.requests.refusedBody();
    for (Outcome outcome :
        List.of(
            Outcome.VALID,
            Outcome.MAC_MISMATCH,
            Outcome.MALFORMED,
            Outcome.STALE,
            Outcome.BODY_MISMATCH)) {
      assertThat(this.requests.checks(outcome)).as(outcome.name()).isOne();
    }
    assertThat(this.requests.checks(Outcome.PENDING)).isZero();
  }

  @Test
  void checksATruncatedTokenMacOnlyAtItsFormatsOwnLength() {
    HmacKey key = this.trust.key("tokens");
    assertThat(key).isNotNull();
    byte[] body = "body".getBytes(StandardCharsets.UTF_8);
    byte[] mac = key.mac(body);
    assertThat(key.matchesTruncated(12, Arrays.copyOf(mac, 12), body)).isTrue();
    for (int length = 0; length <= mac.length; length++) {
      if (length != 12) {
        assertThat(key.matchesTruncated(12, Arrays.copyOf(mac, length), body))
            .as("%d bytes", length)
            .isFalse();
      }
    }
    assertThat(key.matches(mac, body)).isTrue();
    assertThat(key.matches(Arrays.copyOf(mac, 31), body)).isFalse();
    assertThatIllegalArgumentException().isThrownBy(() -> key.matchesTruncated(1, mac, body));
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

  private static byte[] macOf(String signature) {
    return Base64.getUrlDecoder().decode(signature.substring(signature.lastIndexOf('.') + 1));
  }

  private static String withMac(String signature, byte[] mac) {
    return signature.substring(0, signature.lastIndexOf('.') + 1)
        + Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
  }
}
