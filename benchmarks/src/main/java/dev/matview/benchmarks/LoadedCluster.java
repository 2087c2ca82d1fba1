package dev.matview.benchmarks;

import dev.matview.benchmarks.kafka.StreamsProgress;
import dev.matview.benchmarks.process.AppInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Instances of the benchmark app that have processed every order published before they started. */
public final class LoadedCluster implements AutoCloseable {

  private final ClusterSpec spec;

  private final List<AppInstance> instances;

  private LoadedCluster(ClusterSpec spec, List<AppInstance> instances) {
    this.spec = spec;
    this.instances = List.copyOf(instances);
  }

  /** Publishes the spec's orders, starts its instances and waits until they hold every view. */
  public static LoadedCluster start(BenchContext context, ClusterSpec spec) {
    ClusterSetup setup = new ClusterSetup(context);
    setup.publish(
        spec.topic(), context.flags().integer("partitions", 4), spec.orders(), spec.customers());
    List<AppInstance> instances = new ArrayList<>();
    for (int i = 1; i <= spec.instances(); i++) {
      AppInstance instance = setup.instance(spec, spec.name() + "-" + i, context.dir(spec.name()));
      instance.start();
      instances.add(instance);
    }
    LoadedCluster cluster = new LoadedCluster(spec, instances);
    Duration bound = Duration.ofMinutes(3).plusSeconds(spec.orders() / 2_000);
    long started = System.nanoTime();
    instances.forEach(instance -> instance.awaitServing(bound));
    StreamsProgress.awaitCaughtUp(context.broker(), spec.applicationId(), spec.topic(), bound);
    instances.forEach(instance -> instance.awaitServing(bound));
    context.log(
        spec.name()
            + ": "
            + spec.instances()
            + " instance(s) hold "
            + spec.views()
            + " after "
            + Math.round((System.nanoTime() - started) / 1e9)
            + " s");
    return cluster;
  }

  /** What the cluster was started with. */
  public ClusterSpec spec() {
    return this.spec;
  }

  /** The {@code index}th instance, from 0. */
  public AppInstance instance(int index) {
    return this.instances.get(index);
  }

  /** Kills every instance. */
  @Override
  public void close() {
    this.instances.forEach(AppInstance::kill);
  }
}
