package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.web.ViewController;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * Two instances of a test application on an in-process broker whose topic of four partitions holds
 * likes of posts ({@code {"post":"..."}}, keyed by post), and the producer that writes them.
 */
final class LikesCluster implements AutoCloseable {

  private final String topic;

  private final EmbeddedKafkaKraftBroker broker;

  private final Producer<String, String> producer;

  private final List<ClusterInstance> instances = new ArrayList<>();

  private LikesCluster(String topic) {
    this.topic = topic;
    this.broker = new EmbeddedKafkaKraftBroker(1, 4, topic);
    this.broker.afterPropertiesSet();
    this.producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer());
  }

  /**
   * Starts the broker with {@code topic} and two instances of {@code app} as {@code applicationId},
   * each with its state under {@code stateDirs} and {@code settings}.
   */
  static LikesCluster start(
      String topic, Class<?> app, String applicationId, Path stateDirs, String... settings) {
    LikesCluster cluster = new LikesCluster(topic);
    try {
      for (int n = 1; n <= 2; n++) {
        cluster.instances.add(
            ClusterInstance.start(
                app,
                cluster.broker.getBrokersAsString(),
                applicationId,
                stateDirs.resolve("instance-" + n),
                settings));
      }
    } catch (RuntimeException ex) {
      cluster.close();
      throw ex;
    }
    return cluster;
  }

  /** The instances, in the order they started. */
  List<ClusterInstance> instances() {
    return this.instances;
  }

  /** The producer of the likes topic. */
  Producer<String, String> producer() {
    return this.producer;
  }

  /** Writes a like of {@code post} and waits for the broker to take it. */
  void like(String post) {
    try {
      this.producer
          .send(new ProducerRecord<>(this.topic, post, "{\"post\":\"" + post + "\"}"))
          .get(30, TimeUnit.SECONDS);
    } catch (Exception ex) {
      throw new IllegalStateException("Could not publish a like", ex);
    }
  }

  /** Likes {@code post-0} to {@code post-(posts - 1)} once each and waits until both serve them. */
  void likeAndAwaitServed(int posts, Function<String, String> path) {
    for (int post = 0; post < posts; post++) {
      like("post-" + post);
    }
    await("both instances answer every post")
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () -> {
              for (ClusterInstance instance : this.instances) {
                for (int post = 0; post < posts; post++) {
                  assertThat(instance.http().get(path.apply("post-" + post)).status())
                      .isEqualTo(200);
                }
              }
            });
  }

  /** The instance that serves {@code path}, as the first instance answers it. */
  ClusterInstance servingOf(String path) {
    String servedBy =
        this.instances.get(0).http().get(path).header(ViewController.SERVED_BY_HEADER);
    return this.instances.stream()
        .filter((instance) -> servedBy.endsWith(":" + instance.port()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("No instance serves " + path + ": " + servedBy));
  }

  @Override
  public void close() {
    this.instances.forEach(ClusterInstance::close);
    this.producer.close();
    this.broker.destroy();
  }
}
