/**
 * Rows 1 to 3: key lookups over HTTP, in process, and forwarded to the owner; row 10: lookups bound
 * by a position, and read-your-writes.
 */
@NullMarked
package dev.matview.benchmarks.lookups;

import org.jspecify.annotations.NullMarked;
