/** Row 5: an aggregation through Matview against the same topology written by hand. */
@NullMarked
package dev.matview.benchmarks.aggregation;

import org.jspecify.annotations.NullMarked;
