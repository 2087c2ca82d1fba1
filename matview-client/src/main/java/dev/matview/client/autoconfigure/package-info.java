/** Auto-configuration of a {@code MatviewClient} in a Spring Boot application. */
@NullMarked
package dev.matview.client.autoconfigure;

import org.jspecify.annotations.NullMarked;
