/**
 * Reads of this instance's own store partitions: a table's key, a windowed key's windows page by
 * page, and the refusals of a replica that is closed, restoring or lagging beyond the caller's
 * bound.
 */
@NullMarked
package dev.matview.query.local;

import org.jspecify.annotations.NullMarked;
