package dev.matview.faults;

import java.time.Duration;

/**
 * How hard a run pushes: the short form runs inside {@code mvn verify}, the long form by its own
 * command ({@code -Pfault-long}).
 *
 * @param form {@code short} or {@code long}
 * @param instances how many copies of the sample jar run
 * @param customers how many distinct customers the orders name
 * @param ordersPerSecond the publishing rate
 * @param load how long orders are published and instances killed
 * @param firstKill when, after the load starts, the first instance is killed
 * @param killPause how long after a killed instance serves again the next one is killed
 * @param brokerRestart when, after the load starts, the broker is killed and restarted, or null
 * @param lookupPeriod how often each instance gets a lookup
 * @param changeStreams how many customers' change streams of their order count are followed
 * @param restartBound how long a restarted instance or broker may take to serve again
 * @param convergeBound how long the views may take to match the published orders after the load
 */
record FaultPlan(
    String form,
    int instances,
    int customers,
    int ordersPerSecond,
    Duration load,
    Duration firstKill,
    Duration killPause,
    Duration brokerRestart,
    Duration lookupPeriod,
    int changeStreams,
    Duration restartBound,
    Duration convergeBound) {

  /** The plan named by the system property {@code fault.form} (default {@code short}). */
  static FaultPlan fromSystemProperties() {
    String form = System.getProperty("fault.form", "short");
    return switch (form) {
      case "short" ->
          new FaultPlan(
              form,
              3,
              25,
              40,
              Duration.ofSeconds(70),
              Duration.ofSeconds(5),
              Duration.ofSeconds(2),
              null,
              Duration.ofMillis(30),
              4,
              Duration.ofMinutes(3),
              Duration.ofMinutes(4));
      case "long" ->
          new FaultPlan(
              form,
              3,
              50,
              50,
              Duration.ofMinutes(10),
              Duration.ofSeconds(10),
              Duration.ofSeconds(3),
              Duration.ofMinutes(5),
              Duration.ofMillis(20),
              4,
              Duration.ofMinutes(3),
              Duration.ofMinutes(6));
      default ->
          throw new IllegalArgumentException(
              "fault.form must be 'short' or 'long', not '" + form + "'");
    };
  }
}
