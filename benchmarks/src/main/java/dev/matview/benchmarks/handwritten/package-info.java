/**
 * The Spring Boot apps a user would write instead of Matview: the baselines of row 1 (key lookups
 * served from Kafka Streams) and of row 5 (the aggregation into a store).
 */
@NullMarked
package dev.matview.benchmarks.handwritten;

import org.jspecify.annotations.NullMarked;
