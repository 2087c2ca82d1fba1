package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Every {@code json} block of the README and the guide is JSON. */
class JsonBlocksTests {

  private final JsonMapper json =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  @Test
  void everyJsonBlockParses() {
    assertThat(DocPages.tested("json")).isNotEmpty();
    for (CodeBlock block : DocPages.tested("json")) {
      assertThatNoException()
          .as("%s: JSON", block.where())
          .isThrownBy(() -> this.json.readTree(block.code()));
    }
  }
}
