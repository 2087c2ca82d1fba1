package dev.matview.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Tests for {@link AgreementClients}. */
class AgreementClientsTests {

  private final AgreementClients clients = new AgreementClients(streams(), Duration.ofSeconds(20));

  @Test
  void readsTheApplicationsIdServersAndReplicationFactor() {
    assertThat(this.clients.applicationId()).isEqualTo("shop");
    assertThat(this.clients.bootstrapServers()).isEqualTo("broker-1:9092,broker-2:9092");
    assertThat(this.clients.replicationFactor()).contains((short) 3);
  }

  @Test
  void leavesTheReplicationFactorToTheBrokerWhenKafkaStreamsDoes() {
    Properties streams = streams();
    streams.put("replication.factor", "-1");
    assertThat(new AgreementClients(streams, Duration.ofSeconds(20)).replicationFactor()).isEmpty();
  }

  @Test
  void givesTheConsumerNoGroupAndNoCommitsAndEveryClientTheTimeout() {
    assertThat(this.clients.consumerConfigs())
        .doesNotContainKeys("group.id", "group.instance.id")
        .containsEntry("enable.auto.commit", false)
        .containsEntry("request.timeout.ms", 20_000)
        .containsEntry("default.api.timeout.ms", 20_000)
        .containsEntry("client.id", "shop-matview-peers-global-consumer");
    assertThat(this.clients.adminConfigs())
        .containsEntry("request.timeout.ms", 20_000)
        .containsEntry("default.api.timeout.ms", 20_000);
  }

  @Test
  void givesTheProducerNoTransactionsAndAcknowledgementsFromEveryReplica() {
    assertThat(this.clients.producerConfigs())
        .doesNotContainKey("transactional.id")
        .containsEntry("acks", "all")
        .containsEntry("linger.ms", 0)
        .containsEntry("max.block.ms", 20_000L)
        .containsEntry("delivery.timeout.ms", 20_000);
  }

  @Test
  void leavesMatviewsOwnKeysOutOfEveryClient() {
    assertThat(this.clients.adminConfigs()).doesNotContainKey("matview.rocksdb.memory");
    assertThat(this.clients.consumerConfigs()).doesNotContainKey("matview.rocksdb.memory");
    assertThat(this.clients.producerConfigs()).doesNotContainKey("matview.rocksdb.memory");
  }

  private static Properties streams() {
    Properties streams = new Properties();
    streams.put("application.id", "shop");
    streams.put("bootstrap.servers", "broker-1:9092,broker-2:9092");
    streams.put("replication.factor", "3");
    streams.put("matview.rocksdb.memory", "64MB");
    return streams;
  }
}
