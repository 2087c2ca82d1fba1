/**
 * Rows 1 to 3: key lookups over HTTP, in process, and forwarded to the owner; row 10: lookups bound
 * by a position, and read-your-writes; row 13: lookups with and without an observation registry.
 */
@NullMarked
package dev.matview.benchmarks.lookups;

import org.jspecify.annotations.NullMarked;
