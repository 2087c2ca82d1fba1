/**
 * What Matview checks as an application starts: that it runs on the Spring Boot it was built for.
 */
@NullMarked
package dev.matview.startup;

import org.jspecify.annotations.NullMarked;
