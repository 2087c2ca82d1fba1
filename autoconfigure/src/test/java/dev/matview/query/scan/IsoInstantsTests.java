package dev.matview.query.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsoInstantsTests {

  @Test
  void formatsEveryInstantAsIsoInstantDoes() {
    Random random = new Random(20261204L);
    for (int i = 0; i < 100_000; i++) {
      long seconds = random.nextLong(-100_000_000_000L, 300_000_000_000L);
      int nanos =
          switch (i % 4) {
            case 0 -> 0;
            case 1 -> random.nextInt(1_000) * 1_000_000;
            case 2 -> random.nextInt(1_000_000) * 1_000;
            default -> random.nextInt(1_000_000_000);
          };
      Instant instant = Instant.ofEpochSecond(seconds, nanos);
      assertThat(IsoInstants.format(instant))
          .as("%d s %d ns", seconds, nanos)
          .isEqualTo(DateTimeFormatter.ISO_INSTANT.format(instant));
    }
  }

  @Test
  void formatsTheEdgesOfTheYearsItWritesItself() {
    for (Instant instant :
        new Instant[] {
          Instant.EPOCH,
          Instant.ofEpochSecond(0, 1),
          Instant.ofEpochSecond(-1, 999_999_999),
          Instant.parse("9999-12-31T23:59:59.999Z"),
          Instant.parse("+10000-01-01T00:00:00Z"),
          Instant.parse("2024-02-29T12:00:00.100Z")
        }) {
      assertThat(IsoInstants.format(instant)).isEqualTo(instant.toString());
    }
  }
}
