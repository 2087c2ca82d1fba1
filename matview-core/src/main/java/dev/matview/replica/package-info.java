/**
 * This instance's replicas of the views' stores, held by handle from the moment Kafka Streams opens
 * a store partition until it closes it, so that a lookup reads RocksDB without asking Kafka Streams
 * for the store.
 */
@NullMarked
package dev.matview.replica;

import org.jspecify.annotations.NullMarked;
