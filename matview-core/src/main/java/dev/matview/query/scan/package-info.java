/**
 * Scans across partitions and instances: scan bounds, opaque cursors and the positions they carry,
 * a partition's slice read here or asked of its owner, and both ends of the slices instances send
 * each other.
 */
@NullMarked
package dev.matview.query.scan;

import org.jspecify.annotations.NullMarked;
