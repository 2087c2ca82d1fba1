/** The user's vocabulary: view definitions, windows and built-in aggregations. */
@NullMarked
package dev.matview.view;

import org.jspecify.annotations.NullMarked;
