package dev.matview.autoconfigure;

import dev.matview.check.StartupChecks;
import java.util.Properties;
import java.util.function.Supplier;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** Runs the {@link StartupChecks} before the instance serves, first of Matview's start-up work. */
final class StartupChecksLifecycle extends BeforeServingLifecycle {

  private final StartupChecks checks;

  StartupChecksLifecycle(Supplier<StreamsBuilderFactoryBean> factoryBean, StartupChecks checks) {
    super(factoryBean, 2);
    this.checks = checks;
  }

  @Override
  void run(Properties configuration) {
    this.checks.run(configuration);
  }
}
