/**
 * The benchmark app: the sample's three views over an orders topic, and the hand-written baselines
 * that serve or compute the same answers without Matview.
 */
@NullMarked
package dev.matview.benchmarks.app;

import org.jspecify.annotations.NullMarked;
