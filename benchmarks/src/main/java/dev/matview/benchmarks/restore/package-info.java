/** Row 6: restoring a view from its changelog against a plain consumer reading it. */
@NullMarked
package dev.matview.benchmarks.restore;

import org.jspecify.annotations.NullMarked;
