/**
 * A Kafka broker inside the current JVM: the sample app's embedded broker, and the broker JVM that
 * the fault suite and the benchmarks start and kill.
 */
@NullMarked
package dev.matview.broker;

import org.jspecify.annotations.NullMarked;
