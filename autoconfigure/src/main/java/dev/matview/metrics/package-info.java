/** Micrometer binders of Matview's metrics. */
@NullMarked
package dev.matview.metrics;

import org.jspecify.annotations.NullMarked;
