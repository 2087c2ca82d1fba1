package dev.matview.faults;

import dev.matview.processes.KafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Kills a random instance with SIGKILL, restarts it and waits until it serves again, then pauses
 * and does it again; once, if the plan says so, it kills and restarts the broker instead. One fault
 * at a time, so a fault never overlaps the recovery from the previous one.
 */
final class FaultInjector {

  private final List<SampleInstance> instances;

  private final KafkaBroker broker;

  private final FaultPlan plan;

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(runnable -> new Thread(runnable, "faults"));

  private final List<String> log = new CopyOnWriteArrayList<>();

  private final List<Duration> instanceRecoveries = new CopyOnWriteArrayList<>();

  private final List<Duration> brokerRecoveries = new CopyOnWriteArrayList<>();

  private final List<Throwable> errors = new CopyOnWriteArrayList<>();

  private final long startNanos = System.nanoTime();

  FaultInjector(List<SampleInstance> instances, KafkaBroker broker, FaultPlan plan) {
    this.instances = List.copyOf(instances);
    this.broker = broker;
    this.plan = plan;
  }

  /** Starts injecting faults. */
  void start() {
    this.scheduler.scheduleWithFixedDelay(
        () -> guarded(this::killOneInstance),
        this.plan.firstKill().toMillis(),
        this.plan.killPause().toMillis(),
        TimeUnit.MILLISECONDS);
    if (this.plan.brokerRestart() != null) {
      this.scheduler.schedule(
          () -> guarded(this::restartBroker),
          this.plan.brokerRestart().toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  /** Stops injecting and waits until the fault in progress has recovered. */
  void stop() throws InterruptedException {
    this.scheduler.shutdown();
    if (!this.scheduler.awaitTermination(
        this.plan.restartBound().multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS)) {
      this.scheduler.shutdownNow();
      throw new IllegalStateException("The fault in progress did not recover in time");
    }
  }

  /** What was done, in order, each with the time since the load started. */
  List<String> log() {
    return List.copyOf(this.log);
  }

  /** For each instance kill: the time from SIGKILL until the instance served again. */
  List<Duration> instanceRecoveries() {
    return List.copyOf(this.instanceRecoveries);
  }

  /** For each broker kill: the time from SIGKILL until every instance served again. */
  List<Duration> brokerRecoveries() {
    return List.copyOf(this.brokerRecoveries);
  }

  /** Faults that could not be recovered from within the plan's bound. */
  List<Throwable> errors() {
    return new ArrayList<>(this.errors);
  }

  private void killOneInstance() {
    SampleInstance victim =
        this.instances.get(ThreadLocalRandom.current().nextInt(this.instances.size()));
    String killed = victim.toString();
    long start = System.nanoTime();
    String at = sinceStart(start);
    victim.kill();
    victim.start();
    victim.awaitServing(this.plan.restartBound());
    Duration recovery = Duration.ofNanos(System.nanoTime() - start);
    this.instanceRecoveries.add(recovery);
    this.log.add(at + ": kill -9 " + killed + "; serving again after " + seconds(recovery));
  }

  private void restartBroker() {
    long start = System.nanoTime();
    String at = sinceStart(start);
    this.broker.kill();
    this.broker.start();
    for (SampleInstance instance : this.instances) {
      instance.awaitServing(this.plan.restartBound());
    }
    Duration recovery = Duration.ofNanos(System.nanoTime() - start);
    this.brokerRecoveries.add(recovery);
    this.log.add(
        at + ": kill -9 the broker; every instance serving again after " + seconds(recovery));
  }

  private void guarded(Runnable fault) {
    if (!this.errors.isEmpty()) {
      return;
    }
    try {
      fault.run();
    } catch (RuntimeException | Error ex) {
      this.errors.add(ex);
      this.log.add(sinceStart(System.nanoTime()) + ": fault not recovered: " + ex);
    }
  }

  private String sinceStart(long nanos) {
    return seconds(Duration.ofNanos(nanos - this.startNanos));
  }

  static String seconds(Duration duration) {
    return String.format(java.util.Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
  }
}
