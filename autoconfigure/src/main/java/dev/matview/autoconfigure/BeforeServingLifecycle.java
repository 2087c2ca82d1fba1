package dev.matview.autoconfigure;

import java.util.Properties;
import java.util.function.Supplier;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * A lifecycle bean that does its work once with Kafka Streams' configuration, before the web server
 * and the {@link StreamsBuilderFactoryBean} start, and only when the context starts Kafka Streams;
 * it looks the factory bean up rather than depend on it, which would start Kafka Streams first.
 */
abstract class BeforeServingLifecycle implements SmartLifecycle {

  private final Supplier<StreamsBuilderFactoryBean> factoryBean;

  private final int steps;

  private volatile boolean running;

  /** A lifecycle {@code steps} phases before the web server's or the factory bean's, if earlier. */
  BeforeServingLifecycle(Supplier<StreamsBuilderFactoryBean> factoryBean, int steps) {
    this.factoryBean = factoryBean;
    this.steps = steps;
  }

  /**
   * The work, with the {@code configuration} Kafka Streams will start with, which it may add to.
   */
  abstract void run(Properties configuration);

  @Override
  public final void start() {
    StreamsBuilderFactoryBean streams = this.factoryBean.get();
    Properties configuration = streams.getStreamsConfiguration();
    if (configuration != null && !streams.isRunning()) {
      run(configuration);
      streams.setStreamsConfiguration(configuration);
    }
    this.running = true;
  }

  @Override
  public final void stop() {
    this.running = false;
  }

  @Override
  public final boolean isRunning() {
    return this.running;
  }

  @Override
  public final boolean isAutoStartup() {
    return this.factoryBean.get().isAutoStartup();
  }

  @Override
  public final int getPhase() {
    int first =
        Math.min(
            this.factoryBean.get().getPhase(),
            WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE);
    return first < Integer.MIN_VALUE + this.steps ? Integer.MIN_VALUE : first - this.steps;
  }
}
