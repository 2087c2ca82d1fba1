/**
 * The one HTTP client of the tests, the fault suite and the benchmarks' set-up ({@link
 * dev.matview.processes.http.HttpProbe}): requests to the instances they started, answered as
 * values, read whole, without a thread waiting, or line by line as they arrive, with the events of
 * change streams read from those lines; and {@link dev.matview.processes.http.RawHttp}, HTTP
 * written straight onto a socket for the few tests that are about the socket itself.
 */
@NullMarked
package dev.matview.processes.http;

import org.jspecify.annotations.NullMarked;
