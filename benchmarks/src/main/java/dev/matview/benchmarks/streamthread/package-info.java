/**
 * Row 12: records/s through a view's topology while reads wait for offsets and change streams
 * follow its keys, against none (Kafka Streams' TopologyTestDriver, Matview's own processors).
 */
@NullMarked
package dev.matview.benchmarks.streamthread;

import org.jspecify.annotations.NullMarked;
