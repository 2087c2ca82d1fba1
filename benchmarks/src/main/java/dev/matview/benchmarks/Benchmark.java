package dev.matview.benchmarks;

import java.util.List;

/** One row of issue 8's table: a measurement of Matview and its baseline in the same run. */
public interface Benchmark {

  /**
   * The row of issue 8's table this benchmark fills (9: issue 9's directory rebuild), which orders
   * the report.
   */
  int row();

  /** The name that {@code --only} selects, such as {@code lookups}. */
  String name();

  /** What is measured, in a few words. */
  String title();

  /** The loaded instances the benchmark uses, which {@code --prestart=true} starts ahead. */
  default List<ClusterSpec> clusters(Flags flags) {
    return List.of();
  }

  /** Runs the benchmark with the sizes in {@code context}'s flags and returns its figures. */
  List<Row> run(BenchContext context) throws Exception;
}
