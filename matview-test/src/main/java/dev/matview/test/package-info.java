/**
 * Tests of Matview views: {@link dev.matview.test.ViewTestDriver} runs them on Kafka Streams'
 * {@code TopologyTestDriver} without a broker, and {@link dev.matview.test.MatviewIntegrationTest}
 * starts the application on an in-process KRaft broker, with {@link dev.matview.test.ViewAwaiter}
 * to wait for the views' answers.
 */
@NullMarked
package dev.matview.test;

import org.jspecify.annotations.NullMarked;
