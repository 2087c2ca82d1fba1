/** The dashboard at {@code /matview}: HTML, CSS and JavaScript over {@code matviews}. */
@NullMarked
package dev.matview.dashboard;

import org.jspecify.annotations.NullMarked;
