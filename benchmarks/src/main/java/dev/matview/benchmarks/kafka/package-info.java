/** Kafka clients of the runner: the orders it publishes and the progress of Streams apps. */
@NullMarked
package dev.matview.benchmarks.kafka;

import org.jspecify.annotations.NullMarked;
