/** Auto-configuration of Matview and its properties. */
@NullMarked
package dev.matview.autoconfigure;

import org.jspecify.annotations.NullMarked;
