/**
 * Tests of Matview views: {@link dev.matview.test.ViewTestDriver} runs them on Kafka Streams'
 * {@code TopologyTestDriver} without a broker, and {@link dev.matview.test.MatviewIntegrationTest}
 * starts the application on an in-process KRaft broker, with {@link
 * dev.matview.test.MatviewTestPublisher} to publish records to the views' source topics, {@link
 * dev.matview.test.ViewAwaiter} to wait for the views' answers and {@link
 * dev.matview.test.MatviewTestClient} to read them over HTTP.
 */
@NullMarked
package dev.matview.test;

import org.jspecify.annotations.NullMarked;
