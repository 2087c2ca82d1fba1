package dev.matview.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.faults.LookupTally.Mode;
import dev.matview.faults.LookupTally.Share;
import dev.matview.processes.http.HttpProbe;
import java.net.URI;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** How the lookups' outcomes are counted and the share answered computed. */
class LookupTallyTests {

  @Test
  void theShareAnsweredCountsLookupsThatReachedALiveInstanceAndTellsRefusalsForAPositionApart() {
    LookupTally tally = new LookupTally();
    answer(tally, 200, "{\"key\":\"customer-1\",\"value\":3}");
    answer(tally, 404, "{\"type\":\"https://matview.dev/problems/key-not-found\"}");
    answer(tally, 503, "{\"type\":\"https://matview.dev/problems/view-unavailable\"}");
    answer(tally, 503, "{\"type\":\"https://matview.dev/problems/position-not-reached\"}");
    tally.unanswered(Mode.POSITIONED, LookupTally.TIMED_OUT);
    tally.unanswered(Mode.POSITIONED, LookupTally.NO_CONNECTION);

    assertThat(tally.outcomes(Mode.POSITIONED))
        .containsEntry("200", 1L)
        .containsEntry("404", 1L)
        .containsEntry("503", 1L)
        .containsEntry(LookupTally.POSITION_NOT_REACHED, 1L)
        .containsEntry(LookupTally.TIMED_OUT, 1L)
        .containsEntry(LookupTally.NO_CONNECTION, 1L);
    assertThat(tally.shareAnswered(Mode.POSITIONED)).isEqualTo(new Share(2, 5));
    assertThat(tally.shareAnswered(Mode.STALE)).hasToString("n/a");
  }

  @Test
  void aShareIsRoundedDownSoThatOneJustUnderAGoalNeverReadsAsMeetingIt() {
    assertThat(new Share(36_270, 36_453)).hasToString("99.49 % (36270 of 36453)");
    assertThat(new Share(2_042, 2_042)).hasToString("100.00 % (2042 of 2042)");
    assertThat(new Share(1, 3)).hasToString("33.33 % (1 of 3)");
  }

  private static void answer(LookupTally tally, int status, String body) {
    URI uri = URI.create("http://127.0.0.1:8080/views/orders-per-customer/keys/customer-1");
    tally.answered(
        Mode.POSITIONED,
        ViewContents.ORDERS_PER_CUSTOMER,
        new HttpProbe.Answer(
            "GET " + uri, uri, status, new HttpHeaders(), body, ViewReader.JSON.readTree(body)),
        Instant.now(),
        null);
  }
}
