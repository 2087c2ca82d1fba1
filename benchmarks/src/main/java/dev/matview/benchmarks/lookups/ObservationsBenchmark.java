package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.KeySample;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.app.BenchApplication;
import dev.matview.benchmarks.load.LoadResult;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.benchmarks.process.LoadDriverProcess;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Row 13: key lookups over HTTP on an instance with Spring Boot's {@code ObservationRegistry} and
 * no tracer, as an application with the actuator has it (Spring's server observation per request,
 * timed by the meter registry; Matview leaves lookups to its {@code matview.lookups} timer without
 * a tracer), against an instance of the same app and data without a registry, where nothing is
 * observed; and against one where Boot's property turns Matview's observations off, which tells
 * Matview's own share.
 */
public final class ObservationsBenchmark implements Benchmark {

  private static final String TITLE = "HTTP key lookups with and without an ObservationRegistry";

  private static final String OBSERVATION_AUTO_CONFIGURATION =
      "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration";

  @Override
  public int row() {
    return 13;
  }

  @Override
  public String name() {
    return "observations";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<ClusterSpec> clusters(Flags flags) {
    return List.of(observed(flags), unobserved(flags), springOnly(flags));
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    Flags flags = context.flags();
    List<ClusterSpec> specs = clusters(flags);
    try {
      AppInstance observed = context.cluster(specs.get(0)).instance(0);
      AppInstance unobserved = context.cluster(specs.get(1)).instance(0);
      AppInstance springOnly = context.cluster(specs.get(2)).instance(0);
      List<String> keys =
          KeySample.customers(specs.get(0).customers(), flags.integer("lookup-keys", 100_000));
      LoadDriverProcess load =
          HttpLookupsBenchmark.load(
              context, KeySample.paths("/views/" + Clusters.TABLE_VIEW + "/keys/", keys));
      LoadRounds withoutRegistry =
          new LoadRounds(context, TITLE, List.of(unobserved.pid()), List.of(observed.pid()))
              .run(load, unobserved.port(), load, observed.port(), 0);
      LoadRounds matviewOff =
          new LoadRounds(
                  context,
                  TITLE + ", Matview's own off",
                  List.of(springOnly.pid()),
                  List.of(observed.pid()))
              .run(load, springOnly.port(), load, observed.port(), 0);
      requireMeter(observed, "http.server.requests", true);
      requireMeter(observed, "matview.lookup", false);
      requireMeter(springOnly, "http.server.requests", true);
      requireMeter(unobserved, "http.server.requests", false);
      return rows(withoutRegistry, matviewOff);
    } finally {
      specs.forEach(context::discard);
    }
  }

  private static List<Row> rows(LoadRounds withoutRegistry, LoadRounds matviewOff) {
    return List.of(
        Row.atLeast(
                13,
                "lookups/s at saturation with Boot's ObservationRegistry and no tracer (beside:"
                    + " without an ObservationRegistry)",
                withoutRegistry.matview(LoadResult::throughput),
                withoutRegistry.baseline(LoadResult::throughput),
                "req/s",
                0.95)
            .boundedBy(
                "per lookup, Spring's server observation (http.server.requests, a timer and a"
                    + " long task timer of the meter registry); without a tracer Matview observes"
                    + " no lookup"),
        Row.info(
            13,
            "the app's CPU time per lookup at saturation, background included, with the"
                + " ObservationRegistry (beside: without)",
            withoutRegistry.matviewCpuMicros(),
            withoutRegistry.baselineCpuMicros(),
            "µs"),
        Row.info(
                13,
                "lookups/s at saturation with Boot's ObservationRegistry and no tracer (beside: the"
                    + " same with management.observations.enable.matview=false)",
                matviewOff.matview(LoadResult::throughput),
                matviewOff.baseline(LoadResult::throughput),
                "req/s")
            .boundedBy("Matview's own share, none without a tracer"),
        Row.info(
            13,
            "the app's CPU time per lookup at saturation, background included, with Matview's"
                + " observations (beside: without them)",
            matviewOff.matviewCpuMicros(),
            matviewOff.baselineCpuMicros(),
            "µs"));
  }

  /**
   * Fails unless {@code instance} has the meter {@code name} exactly when {@code present}, so that
   * the rows compare what they say they do.
   */
  private static void requireMeter(AppInstance instance, String name, boolean present) {
    int status = instance.http().get("/actuator/metrics/" + name).status();
    if (status != (present ? 200 : 404)) {
      throw new IllegalStateException(
          "Expected "
              + instance.name()
              + (present ? " to have" : " not to have")
              + " the meter "
              + name
              + ", but /actuator/metrics/"
              + name
              + " answered "
              + status);
    }
  }

  /** One instance of the app as released, with Boot's registry. */
  static ClusterSpec observed(Flags flags) {
    return spec(flags, "observed", Map.of());
  }

  /** The same with Boot's registry, but Matview's observations disabled by Boot's property. */
  static ClusterSpec springOnly(Flags flags) {
    return spec(
        flags, "spring-observed", Map.of("management.observations.enable.matview", "false"));
  }

  /** The same without Boot's {@code ObservationAutoConfiguration}: no registry at all. */
  static ClusterSpec unobserved(Flags flags) {
    String container = flags.text("container", "tomcat");
    return spec(
        flags,
        "unobserved",
        Map.of(
            "spring.autoconfigure.exclude",
            BenchApplication.otherContainers(container) + "," + OBSERVATION_AUTO_CONFIGURATION));
  }

  /**
   * One instance named {@code name} over {@code --observation-keys} keys of the table view, its
   * metrics endpoint exposed, with {@code properties}.
   */
  private static ClusterSpec spec(Flags flags, String name, Map<String, String> properties) {
    long keys = flags.integer("observation-keys", 100_000);
    Map<String, String> all = new LinkedHashMap<>(properties);
    all.put("management.endpoints.web.exposure.include", "health,metrics");
    return new ClusterSpec(name, 1, keys, keys, Set.of(Clusters.TABLE_VIEW), all);
  }
}
