package dev.matview.autoconfigure;

import dev.matview.check.StartupChecks;
import java.util.Properties;
import java.util.function.Supplier;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Runs the {@link StartupChecks} in the lifecycle phase just before the one in which the {@link
 * StreamsBuilderFactoryBean} starts Kafka Streams, and only when the context starts it.
 *
 * <p>The factory bean is looked up, not injected: Spring starts a lifecycle bean's dependencies
 * before the bean itself, which would start Kafka Streams before the checks.
 */
final class StartupChecksLifecycle implements SmartLifecycle {

  private final Supplier<StreamsBuilderFactoryBean> factoryBean;

  private final StartupChecks checks;

  private volatile boolean running;

  StartupChecksLifecycle(Supplier<StreamsBuilderFactoryBean> factoryBean, StartupChecks checks) {
    this.factoryBean = factoryBean;
    this.checks = checks;
  }

  @Override
  public void start() {
    StreamsBuilderFactoryBean streams = this.factoryBean.get();
    Properties configuration = streams.getStreamsConfiguration();
    if (configuration != null && !streams.isRunning()) {
      this.checks.run(configuration);
    }
    this.running = true;
  }

  @Override
  public void stop() {
    this.running = false;
  }

  @Override
  public boolean isRunning() {
    return this.running;
  }

  @Override
  public boolean isAutoStartup() {
    return this.factoryBean.get().isAutoStartup();
  }

  @Override
  public int getPhase() {
    int phase = this.factoryBean.get().getPhase();
    return phase == Integer.MIN_VALUE ? phase : phase - 1;
  }
}
