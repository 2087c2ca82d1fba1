/** The HTTP load driver: a process of its own that sends key lookups to 127.0.0.1. */
@NullMarked
package dev.matview.benchmarks.load;

import org.jspecify.annotations.NullMarked;
