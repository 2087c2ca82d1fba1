package dev.matview.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RocksDBMemoryLimitsTests {

  private static final long MIB = 1024 * 1024;

  @Test
  void absentKeysUseDefaults() {
    RocksDBMemoryLimits limits = RocksDBMemoryLimits.fromConfigs(Map.of("application.id", "app"));
    assertThat(limits.totalBytes()).isEqualTo(256 * MIB);
    assertThat(limits.writeBufferRatio()).isEqualTo(0.25);
    assertThat(limits.strictLimit()).isFalse();
    assertThat(limits).isEqualTo(RocksDBMemoryLimits.defaults());
  }

  @Test
  void nullValuesUseDefaults() {
    Map<String, Object> configs = new HashMap<>();
    configs.put(RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG, null);
    configs.put(RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG, null);
    configs.put(RocksDBMemoryLimits.STRICT_LIMIT_CONFIG, null);
    assertThat(RocksDBMemoryLimits.fromConfigs(configs)).isEqualTo(RocksDBMemoryLimits.defaults());
  }

  @Test
  void parsesStrings() {
    RocksDBMemoryLimits limits =
        RocksDBMemoryLimits.fromConfigs(
            Map.of(
                RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG, " 16777216 ",
                RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG, "0.5",
                RocksDBMemoryLimits.STRICT_LIMIT_CONFIG, "TRUE"));
    assertThat(limits).isEqualTo(new RocksDBMemoryLimits(16 * MIB, 0.5, true));
  }

  @Test
  void parsesNumbersAndBooleans() {
    RocksDBMemoryLimits limits =
        RocksDBMemoryLimits.fromConfigs(
            Map.of(
                RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG, 1024,
                RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG, 1,
                RocksDBMemoryLimits.STRICT_LIMIT_CONFIG, Boolean.TRUE));
    assertThat(limits).isEqualTo(new RocksDBMemoryLimits(1024, 1.0, true));
  }

  @Test
  void acceptsWholeNumbersOfBytesInAnyNumericType() {
    assertThat(totalBytesOf(32 * MIB)).isEqualTo(32 * MIB);
    assertThat(totalBytesOf(3.2e7)).isEqualTo(32_000_000L);
    assertThat(totalBytesOf(new BigDecimal("4096.000"))).isEqualTo(4096L);
    assertThat(totalBytesOf("1e6")).isEqualTo(1_000_000L);
  }

  @Test
  void roundTripsThroughConfigs() {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(48 * MIB, 0.4, true);
    assertThat(limits.toConfigs())
        .containsOnlyKeys(
            RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG,
            RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG,
            RocksDBMemoryLimits.STRICT_LIMIT_CONFIG)
        .containsEntry(RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG, 48 * MIB);
    assertThat(RocksDBMemoryLimits.fromConfigs(limits.toConfigs())).isEqualTo(limits);
  }

  @Test
  void writeBufferBytesAreTheRatioOfTheTotal() {
    assertThat(new RocksDBMemoryLimits(16 * MIB, 0.25, false).writeBufferBytes())
        .isEqualTo(4 * MIB);
    assertThat(new RocksDBMemoryLimits(16 * MIB, 1, false).writeBufferBytes()).isEqualTo(16 * MIB);
    assertThat(new RocksDBMemoryLimits(1, 0.5, false).writeBufferBytes()).isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("invalidValues")
  void rejectsInvalidValuesNamingTheKeyAndRange(String key, Object value, String range) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RocksDBMemoryLimits.fromConfigs(Map.of(key, value)))
        .withMessageContaining(key)
        .withMessageContaining(range)
        .withMessageContaining(String.valueOf(value));
  }

  static Stream<Arguments> invalidValues() {
    String total = RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG;
    String ratio = RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG;
    String strict = RocksDBMemoryLimits.STRICT_LIMIT_CONFIG;
    String bytes = "a whole number of bytes from 1 to " + Long.MAX_VALUE;
    String fraction = "a number in the range (0, 1]";
    return Stream.of(
        Arguments.of(total, 0L, bytes),
        Arguments.of(total, -1, bytes),
        Arguments.of(total, "-5", bytes),
        Arguments.of(total, "256MB", bytes),
        Arguments.of(total, "", bytes),
        Arguments.of(total, 1.5, bytes),
        Arguments.of(total, "99999999999999999999", bytes),
        Arguments.of(total, Double.NaN, bytes),
        Arguments.of(total, true, bytes),
        Arguments.of(ratio, 0, fraction),
        Arguments.of(ratio, -0.1, fraction),
        Arguments.of(ratio, 1.01, fraction),
        Arguments.of(ratio, "NaN", fraction),
        Arguments.of(ratio, "half", fraction),
        Arguments.of(ratio, false, fraction),
        Arguments.of(strict, "yes", "true or false"),
        Arguments.of(strict, 1, "true or false"));
  }

  @Test
  void constructorRejectsInvalidLimitsNamingTheKey() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new RocksDBMemoryLimits(0, 0.25, false))
        .withMessageContaining(RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new RocksDBMemoryLimits(MIB, Double.NaN, false))
        .withMessageContaining(RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG);
  }

  private static long totalBytesOf(Object value) {
    return RocksDBMemoryLimits.fromConfigs(Map.of(RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG, value))
        .totalBytes();
  }

  @Test
  void plannedStoresGrowTheDefaultShareTo256KiBEachUpToHalfTheTotal() {
    RocksDBMemoryLimits defaults = RocksDBMemoryLimits.defaults();
    assertThat(defaults.withPlannedStores(192).writeBufferBytes()).isEqualTo(64 * MIB);
    assertThat(defaults.withPlannedStores(400).writeBufferBytes()).isEqualTo(100 * MIB);
    assertThat(defaults.withPlannedStores(768).writeBufferBytes()).isEqualTo(128 * MIB);
    assertThat(defaults.withPlannedStores(Long.MAX_VALUE).writeBufferBytes()).isEqualTo(128 * MIB);
    assertThat(defaults.withPlannedStores(768).maxOpenStores())
        .isGreaterThan(defaults.maxOpenStores());
  }

  @Test
  void plannedStoresNeverShrinkAShareLargerThanTheirs() {
    RocksDBMemoryLimits large = new RocksDBMemoryLimits(256 * MIB, 0.75, false, 768);
    assertThat(large.writeBufferBytes()).isEqualTo(192 * MIB);
  }

  @Test
  void plannedStoresAreReadOnlyWhenTheRatioIsNotConfigured() {
    Map<String, Object> planned = Map.of(RocksDBMemoryLimits.PLANNED_STORES_CONFIG, "768");
    assertThat(RocksDBMemoryLimits.fromConfigs(planned).writeBufferBytes()).isEqualTo(128 * MIB);
    Map<String, Object> configured =
        Map.of(
            RocksDBMemoryLimits.PLANNED_STORES_CONFIG,
            768L,
            RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG,
            0.25);
    RocksDBMemoryLimits exact = RocksDBMemoryLimits.fromConfigs(configured);
    assertThat(exact.plannedStores()).isZero();
    assertThat(exact.writeBufferBytes()).isEqualTo(64 * MIB);
  }

  @Test
  void rejectsPlannedStoresThatAreNotAWholeNumberNamingTheKey() {
    for (Object value : new Object[] {"many", -1, 1.5, Boolean.TRUE}) {
      assertThatIllegalArgumentException()
          .isThrownBy(
              () ->
                  RocksDBMemoryLimits.fromConfigs(
                      Map.of(RocksDBMemoryLimits.PLANNED_STORES_CONFIG, value)))
          .withMessageContaining(RocksDBMemoryLimits.PLANNED_STORES_CONFIG)
          .withMessageContaining("a whole number of stores");
    }
  }

  @Test
  void memtableBlocksAreSmallSoThatAStoreCostsAboutWhatItHolds() {
    RocksDBMemoryLimits limits = RocksDBMemoryLimits.defaults();
    assertThat(limits.arenaBlockBytes()).isEqualTo(8 * 1024);
    assertThat(limits.memtableFloorBytes()).isEqualTo(12 * 1024);
  }

  @Test
  void defaultsHoldTheFloorsOfThousandsOfStores() {
    RocksDBMemoryLimits limits = RocksDBMemoryLimits.defaults();
    assertThat(limits.maxOpenStores()).isEqualTo((64 * MIB * 7 / 8) / (12 * 1024));
    assertThat(limits.maxOpenStores()).isGreaterThan(512 * 5);
  }

  @Test
  void totalForAStoreCountIsTheSmallestWholeMebibyteThatHoldsThem() {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(8 * MIB, 0.25, false);
    long total = limits.totalBytesFor(1200);
    assertThat(total).isEqualTo(65 * MIB);
    assertThat(new RocksDBMemoryLimits(total, 0.25, false).maxOpenStores())
        .isGreaterThanOrEqualTo(1200);
    assertThat(new RocksDBMemoryLimits(total - MIB, 0.25, false).maxOpenStores()).isLessThan(1200);
    assertThat(limits.totalBytesFor(limits.maxOpenStores())).isEqualTo(8 * MIB);
    for (long stores = 1; stores < 1_000_000; stores = stores * 3 + 1) {
      long fitting = limits.totalBytesFor(stores);
      assertThat(new RocksDBMemoryLimits(fitting, 0.25, false).maxOpenStores())
          .isGreaterThanOrEqualTo(stores);
    }
  }
}
