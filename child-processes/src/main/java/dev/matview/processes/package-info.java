/**
 * Child JVMs that the fault suite and the benchmarks start and kill: a Kafka broker run from the
 * Maven jars, and any main class or jar with a temp dir and log of its own.
 */
@NullMarked
package dev.matview.processes;

import org.jspecify.annotations.NullMarked;
