/** Child JVMs of a benchmark run: the broker, instances of the benchmark app, load drivers. */
@NullMarked
package dev.matview.benchmarks.process;

import org.jspecify.annotations.NullMarked;
