package dev.matview.benchmarks;

import dev.matview.benchmarks.kafka.OrdersProducer;
import dev.matview.benchmarks.kafka.StreamsProgress;
import dev.matview.benchmarks.process.AppInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    var broker = context.broker();
    broker.createTopic(spec.topic(), context.flags().integer("partitions", 4));
    context.log(spec.name() + ": publishing " + spec.orders() + " orders");
    OrdersProducer.publish(
        broker.bootstrapServers(), spec.topic(), spec.orders(), spec.customers());
    Map<String, String> properties = new LinkedHashMap<>();
    for (String view : ClusterSpec.ALL_VIEWS) {
      properties.put("bench.views." + view, Boolean.toString(spec.views().contains(view)));
    }
    properties.putAll(spec.properties());
    List<AppInstance> instances = new ArrayList<>();
    for (int i = 1; i <= spec.instances(); i++) {
      AppInstance instance =
          new AppInstance(
              spec.name() + "-" + i,
              context.dir(spec.name()),
              broker.bootstrapServers(),
              spec.applicationId(),
              spec.topic(),
              context.appJvmOptions(),
              context.appProperties(properties));
      instance.start();
      instances.add(instance);
    }
    LoadedCluster cluster = new LoadedCluster(spec, instances);
    Duration bound = Duration.ofMinutes(3).plusSeconds(spec.orders() / 2_000);
    long started = System.nanoTime();
    instances.forEach(instance -> instance.awaitServing(bound));
    StreamsProgress.awaitCaughtUp(broker, spec.applicationId(), spec.topic(), bound);
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
