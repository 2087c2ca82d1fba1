/** HTTP endpoints that serve view lookups and their problem details. */
@NullMarked
package dev.matview.web;

import org.jspecify.annotations.NullMarked;
