/** The actuator endpoint {@code matviews}: what this instance and its cluster hold of the views. */
@NullMarked
package dev.matview.actuate;

import org.jspecify.annotations.NullMarked;
