/**
 * Row 1's second baseline: the Spring Boot app a user would write instead of Matview to serve the
 * same key lookups from Kafka Streams.
 */
@NullMarked
package dev.matview.benchmarks.handwritten;

import org.jspecify.annotations.NullMarked;
