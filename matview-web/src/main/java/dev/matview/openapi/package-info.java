/** Typed OpenAPI descriptions of each view's endpoints, when springdoc-openapi is present. */
@NullMarked
package dev.matview.openapi;

import org.jspecify.annotations.NullMarked;
