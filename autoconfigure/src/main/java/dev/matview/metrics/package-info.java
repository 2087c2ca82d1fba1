/** Micrometer meters of Matview, and the recent lookups the {@code matviews} endpoint shows. */
@NullMarked
package dev.matview.metrics;

import org.jspecify.annotations.NullMarked;
