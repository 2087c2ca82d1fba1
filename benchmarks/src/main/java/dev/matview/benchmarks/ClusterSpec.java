package dev.matview.benchmarks;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Instances of the benchmark app over orders loaded beforehand.
 *
 * @param name names the topic, the application id and the instances
 * @param instances how many instances share the views
 * @param orders orders published before the instances start
 * @param customers distinct customers among them, the keys of the views
 * @param views the views the instances keep; the others are left out
 * @param properties further properties of every instance
 * @param jvmOptions the JVM options of every instance, or none for the run's ({@code
 *     --app-jvm-options})
 */
public record ClusterSpec(
    String name,
    int instances,
    long orders,
    long customers,
    Set<String> views,
    Map<String, String> properties,
    List<String> jvmOptions) {

  /** Instances with the run's JVM options. */
  public ClusterSpec(
      String name,
      int instances,
      long orders,
      long customers,
      Set<String> views,
      Map<String, String> properties) {
    this(name, instances, orders, customers, views, properties, List.of());
  }

  /** The sample's three views. */
  public static final List<String> ALL_VIEWS =
      List.of("orders-per-customer", "revenue-per-customer", "orders-per-customer-per-minute");

  /** The application id of the instances. */
  public String applicationId() {
    return "bench-" + this.name;
  }

  /** The orders topic. */
  public String topic() {
    return this.name + "-orders";
  }
}
