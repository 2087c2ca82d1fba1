/**
 * Micrometer meters of the views' lookups, restore and standby lag and RocksDB's shared memory, and
 * the recent lookup activity that the {@code matviews} endpoint shows.
 */
@NullMarked
package dev.matview.metrics;

import org.jspecify.annotations.NullMarked;
