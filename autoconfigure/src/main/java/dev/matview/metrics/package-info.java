/**
 * Micrometer meters of the views' lookups, restore and standby lag, RocksDB's shared memory and
 * Matview's executors, and the recent lookup activity that the {@code matviews} endpoint shows.
 */
@NullMarked
package dev.matview.metrics;

import org.jspecify.annotations.NullMarked;
