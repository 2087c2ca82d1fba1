/**
 * Matview's pieces of Kafka Streams' public extension points: a client supplier that keeps
 * Matview's own settings, which reach the RocksDB config setter and the exception handlers through
 * Kafka Streams' configuration, out of the configurations of Kafka's clients, and a Kafka Streams
 * that keeps Matview's listeners next to the one listener of each kind set on it.
 */
@NullMarked
package dev.matview.kafka;

import org.jspecify.annotations.NullMarked;
