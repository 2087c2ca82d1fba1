/**
 * Row 7: RSS, the JVM's own share and RocksDB's share of one instance holding the sample's three
 * views over many partitions, with Matview's memory bound and without it.
 */
@NullMarked
package dev.matview.benchmarks.memory;

import org.jspecify.annotations.NullMarked;
