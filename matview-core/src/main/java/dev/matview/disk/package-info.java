/** The disk the views' RocksDB stores take up, and the free space left for them. */
@NullMarked
package dev.matview.disk;

import org.jspecify.annotations.NullMarked;
