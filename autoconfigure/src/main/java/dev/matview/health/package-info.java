/** Restore and standby lag of the local store partitions, and the health built on it. */
@NullMarked
package dev.matview.health;

import org.jspecify.annotations.NullMarked;
