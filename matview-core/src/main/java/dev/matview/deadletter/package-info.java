/**
 * Sends records that a view cannot use to the dead-letter topic, from Kafka Streams' exception
 * handlers.
 */
@NullMarked
package dev.matview.deadletter;

import org.jspecify.annotations.NullMarked;
