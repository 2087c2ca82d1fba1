/** Process-wide bounds on the off-heap memory RocksDB state stores use in Kafka Streams. */
@NullMarked
package dev.matview.rocksdb;

import org.jspecify.annotations.NullMarked;
