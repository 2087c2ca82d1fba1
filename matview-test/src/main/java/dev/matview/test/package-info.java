/**
 * Tests of Matview views: {@link dev.matview.test.ViewTestDriver} runs them on Kafka Streams'
 * {@code TopologyTestDriver} without a broker.
 */
@NullMarked
package dev.matview.test;

import org.jspecify.annotations.NullMarked;
