/**
 * A Kafka broker inside the current JVM: Matview's development broker (the sample's), the test
 * kit's, and the broker JVM that the fault suite and the benchmarks start and kill.
 */
@NullMarked
package dev.matview.broker;

import org.jspecify.annotations.NullMarked;
