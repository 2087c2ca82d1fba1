/**
 * Row 11, issue 29's goals for change streams: how soon an update reaches the clients that follow
 * its key, and what idle streams cost the instance in heap and threads.
 */
@NullMarked
package dev.matview.benchmarks.changes;

import org.jspecify.annotations.NullMarked;
