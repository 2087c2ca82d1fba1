/** Row 9: the rebuild of the replica directory from the metadata of a large application (JMH). */
@NullMarked
package dev.matview.benchmarks.directory;

import org.jspecify.annotations.NullMarked;
