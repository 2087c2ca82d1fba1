package dev.matview.query.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;

class ScanLinesTests {

  private static final List<Object> ITEMS =
      List.of(
          new KeyItem("a\"b", Map.of("total", new BigDecimal("12.50"))),
          new KeyItem(42L, 7L),
          new WindowItem(
              "k", Instant.parse("2026-12-04T10:00:00Z"), Instant.parse("2026-12-04T10:01:00Z"), 3),
          new WindowItem(
              Map.of("shop", "s"),
              Instant.parse("2026-12-04T10:00:00.250Z"),
              Instant.parse("2026-12-04T10:00:00.250Z"),
              List.of(1, 2)));

  @Test
  void writesEachItemOnALineAsTheMapperWritesIt() {
    ObjectMapper mapper = JsonMapper.builder().build();
    ScanLines lines = new ScanLines(mapper);
    assertThat(lines.writesBatches()).isTrue();
    assertThat(lines(lines)).isEqualTo(expected(mapper));
  }

  @Test
  void writesInstantsAsTheMapperDoesWhereItWritesThemAsNumbers() {
    ObjectMapper mapper =
        JsonMapper.builder().enable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS).build();
    ScanLines lines = new ScanLines(mapper);
    assertThat(lines.writesBatches()).isFalse();
    assertThat(lines(lines)).isEqualTo(expected(mapper)).doesNotContain("2026-12-04");
  }

  @Test
  void endsASliceSentToAnotherInstanceWithWhereItEnded() {
    ObjectMapper mapper = JsonMapper.builder().build();
    String body =
        new String(
            new ScanLines(mapper).peerBody(ITEMS.subList(0, 1), "token", false),
            StandardCharsets.UTF_8);
    assertThat(body)
        .isEqualTo(
            mapper.writeValueAsString(ITEMS.get(0))
                + "\n{\"last\":\"token\",\"exhausted\":false,\"count\":1}\n");
  }

  private static String lines(ScanLines lines) {
    ItemLines written = lines.of(new Slice<>(ITEMS, null, true)).items().get(0);
    assertThat(written.count()).isEqualTo(ITEMS.size());
    return new String(written.bytes(), 0, written.length(), StandardCharsets.UTF_8);
  }

  private static String expected(ObjectMapper mapper) {
    StringBuilder lines = new StringBuilder();
    for (Object item : ITEMS) {
      lines.append(mapper.writeValueAsString(item)).append('\n');
    }
    return lines.toString();
  }
}
