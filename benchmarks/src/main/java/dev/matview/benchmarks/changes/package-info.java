/**
 * Row 11, issue 29's goals for change streams: how soon an update reaches the clients that follow
 * its key, and what idle streams cost the instance in heap and threads; and issue 48's at scale:
 * 10,000 key streams and 100 view streams under 2,000 orders/s, on one instance and relayed from a
 * second, with the stream thread's rate beside none open.
 */
@NullMarked
package dev.matview.benchmarks.changes;

import org.jspecify.annotations.NullMarked;
