/** The Spring Boot and Kafka versions checked at start, and the summary logged once running. */
@NullMarked
package dev.matview.startup;

import org.jspecify.annotations.NullMarked;
