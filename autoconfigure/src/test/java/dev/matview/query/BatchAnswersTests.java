package dev.matview.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.PeerResponse;
import dev.matview.query.answer.BatchItem;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.query.answer.WindowsItem;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.Views;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
    List<BatchItem> items = new ArrayList<>(Collections.nCopies(3, null));
    boolean filled =
        this.answers.fill(
            this.view,
            this.group,
            response(
                200,
                "{\"items\":[{\"key\":\"a\",\"found\":true,\"value\":1},"
                    + "{\"key\":\"c\",\"found\":false}]}",
                null),
            items,
            BatchAnswers::ownedValue);
    assertThat(filled).isTrue();
    assertThat(items.get(0).found()).isTrue();
    assertThat(items.get(1)).isNull();
    assertThat(items.get(2).found()).isFalse();
    assertThat(items.get(2).value()).isNull();
  }

  @Test
  void leavesTheKeysOfAGroupToBeAskedAloneWhenItsAnswerIsShortUnreadableOrAnError() {
    List<BatchItem> items = new ArrayList<>(Collections.nCopies(3, null));
    String one = "{\"items\":[{\"key\":\"a\",\"found\":true,\"value\":1}]}";
    assertThat(
            this.answers.fill(
                this.view, this.group, response(200, one, null), items, BatchAnswers::ownedValue))
        .isFalse();
    assertThat(
            this.answers.fill(
                this.view, this.group, response(200, "[", null), items, BatchAnswers::ownedValue))
        .isFalse();
    assertThat(
            this.answers.fill(
                this.view, this.group, response(503, "{}", "1"), items, BatchAnswers::ownedValue))
        .isFalse();
    assertThat(items).containsOnlyNulls();
  }

  @Test
  void windowsFoundElsewhereAreTheKeysItemAndAnUnreadableAnswerOrARefusalRefusesTheBatch() {
    Routed<WindowsItem> item =
        this.answers.windowsItem(
            this.view,
            "a",
            new Routed.Relayed<WindowsAnswer>(
                response(200, "{\"key\":\"a\",\"windows\":[{\"value\":3}]}", null)));
    WindowsItem windows = ((Routed.Local<WindowsItem>) item).answer();
    assertThat(windows.key()).isEqualTo("a");
    assertThat(windows.windows()).hasToString("[{\"value\":3}]");
    Routed<WindowsItem> noWindows =
        this.answers.windowsItem(
            this.view, "a", new Routed.Relayed<WindowsAnswer>(response(200, "{}", null)));
    assertThat(((Routed.Refused<WindowsItem>) noWindows).refusal().reason())
        .isEqualTo(Refusal.Reason.FAILED);
    Routed<WindowsItem> restoring =
        this.answers.windowsItem(
            this.view, "a", new Routed.Relayed<WindowsAnswer>(response(503, "{}", "2")));
    Refusal refusal = ((Routed.Refused<WindowsItem>) restoring).refusal();
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.UNAVAILABLE);
    assertThat(refusal.retryAfter()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void fillsTheWindowsOfAGroupFromABatchAnswerOnlyWhenEveryItemHoldsWindows() {
    List<WindowsItem> items = new ArrayList<>(Collections.nCopies(3, null));
    String whole = "{\"items\":[{\"key\":\"a\",\"windows\":[]},{\"key\":\"c\",\"windows\":[{}]}]}";
    String oneWithout = "{\"items\":[{\"key\":\"a\",\"windows\":[]},{\"key\":\"c\"}]}";
    assertThat(
            this.answers.fill(
                this.view,
                this.group,
                response(200, oneWithout, null),
                items,
                BatchAnswers::ownedWindows))
        .isFalse();
    assertThat(items).containsOnlyNulls();
    assertThat(
            this.answers.fill(
                this.view,
                this.group,
                response(200, whole, null),
                items,
                BatchAnswers::ownedWindows))
        .isTrue();
    assertThat(items.get(0).windows()).hasToString("[]");
    assertThat(items.get(1)).isNull();
    assertThat(items.get(2).key()).hasToString("\"c\"");
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
