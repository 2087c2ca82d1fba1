package dev.matview.deadletter;

import static dev.matview.deadletter.DeadLetterFixtures.header;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** Tests for {@link DeadLetterSizer}. */
class DeadLetterSizerTests {

  private static final int LIMIT = 1_048_576;

  private final DeadLetterSizer sizer = new DeadLetterSizer(LIMIT);

  @Test
  void leavesARecordThatFitsAsItIs() {
    ProducerRecord<byte[], byte[]> record =
        record(new byte[10], new byte[1000], new RecordHeaders());
    assertThat(this.sizer.fit(record)).isSameAs(record);
  }

  @Test
  void cutsAOneMegabyteValueSoThatTheRecordWithItsHeadersFitsTheProducersLimit() {
    RecordHeaders headers = new RecordHeaders();
    headers.add(DeadLetterHeaders.REASON, "deserialization".getBytes(StandardCharsets.UTF_8));
    byte[] value = new byte[LIMIT];
    Arrays.fill(value, (byte) 'x');
    ProducerRecord<byte[], byte[]> fitted = this.sizer.fit(record(new byte[20], value, headers));
    assertThat(RecordSizeBound.of(fitted)).isLessThanOrEqualTo(LIMIT);
    assertThat(fitted.value()).hasSizeGreaterThan(LIMIT - 2 * DeadLetterSizer.OVERHEAD);
    assertThat(fitted.key()).hasSize(20);
    assertThat(header(fitted.headers(), DeadLetterHeaders.TRUNCATED)).isEqualTo("value=" + LIMIT);
    assertThat(header(fitted.headers(), DeadLetterHeaders.REASON)).isEqualTo("deserialization");
  }

  @Test
  void cutsAHugeKeyAndValueAndDropsTheRecordsOwnHugeHeadersButKeepsMatviews() {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", new byte[600_000]);
    headers.add(DeadLetterHeaders.VIEW, "v".getBytes(StandardCharsets.UTF_8));
    ProducerRecord<byte[], byte[]> fitted =
        this.sizer.fit(record(new byte[700_000], new byte[900_000], headers));
    assertThat(RecordSizeBound.of(fitted)).isLessThanOrEqualTo(LIMIT);
    assertThat(fitted.headers().lastHeader("trace")).isNull();
    assertThat(header(fitted.headers(), DeadLetterHeaders.VIEW)).isEqualTo("v");
    assertThat(header(fitted.headers(), DeadLetterHeaders.TRUNCATED))
        .isEqualTo("key=700000,headers=600005,value=900000");
  }

  @Test
  void cutsKeyAndValueToNothingWhenOnlyMatviewsHeadersFit() {
    DeadLetterSizer small = new DeadLetterSizer(4096);
    RecordHeaders headers = new RecordHeaders();
    headers.add(DeadLetterHeaders.EXCEPTION_MESSAGE, new byte[3500]);
    ProducerRecord<byte[], byte[]> fitted =
        small.fit(record(new byte[100], new byte[100], headers));
    assertThat(fitted.key()).isEmpty();
    assertThat(fitted.value()).isEmpty();
    assertThat(header(fitted.headers(), DeadLetterHeaders.TRUNCATED))
        .isEqualTo("key=100,value=100");
  }

  @Test
  void shortensAnExceptionMessage() {
    String message = "x".repeat(DeadLetterSizer.MAX_MESSAGE_CHARS + 10);
    assertThat(DeadLetterSizer.shorten(message))
        .startsWith("xxx")
        .endsWith("... (10 more characters)")
        .hasSize(DeadLetterSizer.MAX_MESSAGE_CHARS + 24);
  }

  private static ProducerRecord<byte[], byte[]> record(
      byte[] key, byte[] value, RecordHeaders headers) {
    return new ProducerRecord<>("dlq", null, null, key, value, headers);
  }
}
