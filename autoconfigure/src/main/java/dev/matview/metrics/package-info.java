/** Micrometer meters of the views' restore and standby lag and of RocksDB's shared memory. */
@NullMarked
package dev.matview.metrics;

import org.jspecify.annotations.NullMarked;
