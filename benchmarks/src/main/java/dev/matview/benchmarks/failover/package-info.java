/** Row 8: how soon a killed owner's keys answer again, with and without a standby. */
@NullMarked
package dev.matview.benchmarks.failover;

import org.jspecify.annotations.NullMarked;
