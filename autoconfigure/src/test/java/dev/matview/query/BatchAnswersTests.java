package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.PeerResponse;
import dev.matview.query.answer.BatchItem;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** How the answer of another instance becomes the items of a batch, or a refusal of it. */
class BatchAnswersTests {

  private final ViewSerdes serdes = new ViewSerdes(JsonMapper.builder().build());

  private final BatchAnswers answers = new BatchAnswers(this.serdes.mapper());

  private final ResolvedView<?, ?, ?> view =
      ViewRegistry.of(
              Map.of("counts", Views.from("events", Event.class).count()), this.serdes, "app")
          .find("counts")
          .orElseThrow();

  private final ViewBatchService.OwnerKeys group =
      new ViewBatchService.OwnerKeys(
          new PartitionOwner(1, new HostInfo("peer", 8080)), List.of(0, 2));

  @Test
  void aKeyNotFoundElsewhereIsAnAbsentItem() {
    Routed<BatchItem> item =
        this.answers.item(
            this.view,
            "a",
            relayed(404, "{\"type\":\"https://matview.dev/problems/key-not-found\"}", null));
    assertThat(item).isEqualTo(new Routed.Local<>(new BatchItem("a", false, null)));
  }

  @Test
  void aValueFoundElsewhereIsAFoundItem() {
    Routed<BatchItem> item =
        this.answers.item(this.view, "a", relayed(200, "{\"key\":\"a\",\"value\":7}", null));
    BatchItem found = ((Routed.Local<BatchItem>) item).answer();
    assertThat(found.found()).isTrue();
    assertThat(found.value()).hasToString("7");
  }

  @Test
  void aRefusalElsewhereRefusesTheBatchWithItsDetailAndRetryAfter() {
    Routed<BatchItem> item =
        this.answers.item(
            this.view,
            "a",
            relayed(503, "{\"detail\":\"Partition 1 of view 'counts' is restoring\"}", "5"));
    Refusal refusal = ((Routed.Refused<BatchItem>) item).refusal();
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.UNAVAILABLE);
    assertThat(refusal.detail())
        .isEqualTo(
            "Another instance answered 503 for key a of this batch: Partition 1 of view"
                + " 'counts' is restoring");
    assertThat(refusal.retryAfter()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void anUnreadableAnswerElsewhereIsAFailureNamingTheKey() {
    Routed<BatchItem> item = this.answers.item(this.view, "a", relayed(200, "{not json", null));
    Refusal refusal = ((Routed.Refused<BatchItem>) item).refusal();
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.FAILED);
    assertThat(refusal.detail()).contains("answered 200 for key a");
  }

  @Test
  void fillsTheItemsOfAGroupInTheOrderAskedFromACompleteBatchAnswer() {
    BatchItem[] items = new BatchItem[3];
    boolean filled =
        this.answers.fill(
            this.view,
            this.group,
            response(
                200,
                "{\"items\":[{\"key\":\"a\",\"found\":true,\"value\":1},"
                    + "{\"key\":\"c\",\"found\":false}]}",
                null),
            items);
    assertThat(filled).isTrue();
    assertThat(items[0].found()).isTrue();
    assertThat(items[1]).isNull();
    assertThat(items[2].found()).isFalse();
    assertThat(items[2].value()).isNull();
  }

  @Test
  void leavesTheKeysOfAGroupToBeAskedAloneWhenItsAnswerIsShortUnreadableOrAnError() {
    BatchItem[] items = new BatchItem[3];
    String one = "{\"items\":[{\"key\":\"a\",\"found\":true,\"value\":1}]}";
    assertThat(this.answers.fill(this.view, this.group, response(200, one, null), items)).isFalse();
    assertThat(this.answers.fill(this.view, this.group, response(200, "[", null), items)).isFalse();
    assertThat(this.answers.fill(this.view, this.group, response(503, "{}", "1"), items)).isFalse();
    assertThat(items).containsOnlyNulls();
  }

  private static Routed<KeyAnswer> relayed(int status, String body, String retryAfter) {
    return new Routed.Relayed<>(response(status, body, retryAfter));
  }

  private static PeerResponse response(int status, String body, String retryAfter) {
    Map<String, List<String>> headers =
        retryAfter != null ? Map.of("Retry-After", List.of(retryAfter)) : Map.of();
    return new PeerResponse(status, headers, body.getBytes(StandardCharsets.UTF_8));
  }

  record Event(String id) {}
}
