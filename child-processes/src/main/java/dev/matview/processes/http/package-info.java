/**
 * The one HTTP client of the tests, the fault suite and the benchmarks' set-up: requests to the
 * instances they started, answered as values.
 */
@NullMarked
package dev.matview.processes.http;

import org.jspecify.annotations.NullMarked;
