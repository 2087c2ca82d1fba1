/**
 * The rules of Redocly's recommended ruleset for OpenAPI 3 documents, checked in the build over a
 * served document without downloading a linter.
 */
@NullMarked
package dev.matview.processes.openapi;

import org.jspecify.annotations.NullMarked;
