/**
 * Keeps Matview's own settings, which reach the RocksDB config setter and the exception handlers it
 * installs through Kafka Streams' configuration, out of the configurations of Kafka's clients.
 */
@NullMarked
package dev.matview.kafka;

import org.jspecify.annotations.NullMarked;
