package dev.matview.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which existing topics are close enough to a missing one to be suggested. */
class TopicSuggestionsTests {

  @Test
  void suggestsTheClosestTopicsFirstInNameOrderAndAtMostThree() {
    assertThat(TopicSuggestions.closeTo("sales", List.of("sale", "tales", "sales", "scales")))
        .containsExactly("sale", "scales", "tales");
    assertThat(TopicSuggestions.closeTo("sales", List.of("salez", "salew", "saley", "salex")))
        .containsExactly("salew", "salex", "saley");
    assertThat(
            TopicSuggestions.closeTo("payment-events", List.of("payments-event", "payment-event")))
        .containsExactly("payment-event");
  }

  @Test
  void allowsTwoEditsOnlyInNamesOfTenCharactersOrMore() {
    assertThat(TopicSuggestions.closeTo("orders", List.of("odrerz"))).isEmpty();
    assertThat(TopicSuggestions.closeTo("order-events", List.of("ordre-event")))
        .containsExactly("ordre-event");
  }
}
