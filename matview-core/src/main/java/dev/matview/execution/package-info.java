/**
 * Every thread Matview starts: a few named, bounded executors declared in one place ({@link
 * dev.matview.execution.MatviewExecutors}), each with its job, closed in order when the instance
 * stops.
 */
@NullMarked
package dev.matview.execution;

import org.jspecify.annotations.NullMarked;
