package dev.matview.query.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.QueryResult;
import org.junit.jupiter.api.Test;

/** A failed store query is told to the caller in a short sentence, never with Kafka's trace. */
class WindowStoresFailureTests {

  @Test
  void tellsAStoreExceptionWithoutItsStackTrace() {
    String trace =
        "java.lang.ArithmeticException: long overflow\n"
            + "\tat java.base/java.lang.Math.multiplyExact(Math.java:1032)\n".repeat(100);
    QueryResult<Object> failed = QueryResult.forFailure(FailureReason.STORE_EXCEPTION, trace);
    String reason = WindowStores.failureReason("orders", 2, failed);
    assertThat(reason)
        .contains("store failed the query")
        .doesNotContain("\tat ")
        .doesNotContain("ArithmeticException")
        .hasSizeLessThan(120);
  }

  @Test
  void tellsAReplicaThatIsNotActiveWithoutKafkasMessage() {
    QueryResult<Object> failed =
        QueryResult.forFailure(FailureReason.NOT_ACTIVE, "Query requires a running active task");
    assertThat(WindowStores.failureReason("orders", 0, failed))
        .isEqualTo("its replica here is still restoring or being assigned");
  }
}
