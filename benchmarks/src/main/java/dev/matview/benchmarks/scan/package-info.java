/** Row 4: full scans through cursors against raw ranges over the local stores. */
@NullMarked
package dev.matview.benchmarks.scan;

import org.jspecify.annotations.NullMarked;
