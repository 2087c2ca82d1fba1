/**
 * Turns view definitions into a Kafka Streams topology: the DSL for sources and repartitioning,
 * Matview's own processors for the aggregations above Kafka's record cache.
 */
@NullMarked
package dev.matview.topology;

import org.jspecify.annotations.NullMarked;
