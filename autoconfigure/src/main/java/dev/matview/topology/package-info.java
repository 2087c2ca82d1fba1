/** Turns view definitions into Kafka Streams DSL. */
@NullMarked
package dev.matview.topology;

import org.jspecify.annotations.NullMarked;
