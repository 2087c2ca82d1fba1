/**
 * The dashboard page at {@code /matview}: plain HTML, CSS and JavaScript that read the actuator
 * endpoint {@code matviews} and the lookup API.
 */
@NullMarked
package dev.matview.dashboard;

import org.jspecify.annotations.NullMarked;
