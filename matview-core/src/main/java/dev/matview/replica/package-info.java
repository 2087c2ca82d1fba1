/**
 * This instance's replicas of the views' stores, held by handle from the moment Kafka Streams opens
 * a store partition until it closes it, so that a lookup reads RocksDB without asking Kafka Streams
 * for the store; and the table views' store itself, Matview's own on RocksDB, read without a lock.
 */
@NullMarked
package dev.matview.replica;

import org.jspecify.annotations.NullMarked;
