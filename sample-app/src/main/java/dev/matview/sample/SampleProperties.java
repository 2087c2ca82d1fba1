package dev.matview.sample;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample app.
 *
 * @param embeddedKafka the in-process broker
 * @param generator the random order generator
 */
@ConfigurationProperties("sample")
public record SampleProperties(
    @DefaultValue EmbeddedKafka embeddedKafka, @DefaultValue Generator generator) {

  /**
   * The in-process single-node KRaft broker.
   *
   * @param enabled whether the app starts an in-process broker
   * @param port its port on 127.0.0.1
   * @param dataDir its log dir, kept across restarts
   */
  public record EmbeddedKafka(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("9092") int port,
      @DefaultValue("data/kafka") Path dataDir) {}

  /**
   * The random order generator.
   *
   * @param enabled whether random orders are published
   * @param rate orders per second
   * @param customers distinct customer ids, customer-1 to customer-N
   */
  public record Generator(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("50") int rate,
      @DefaultValue("1000") int customers) {}
}
