/** Benchmarks of Matview side by side with hand-written baselines, run by their own command. */
@NullMarked
package dev.matview.benchmarks;

import org.jspecify.annotations.NullMarked;
