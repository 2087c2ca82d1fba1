/**
 * What Matview checks and says as an application starts: that it runs on the Spring Boot it was
 * built for and on a Spring Boot and Kafka it is tested on, and, once Kafka Streams runs, what it
 * built and where to look the views up.
 */
@NullMarked
package dev.matview.startup;

import org.jspecify.annotations.NullMarked;
