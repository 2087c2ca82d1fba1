/** The Matview sample: order views over an in-process Kafka broker. */
@NullMarked
package dev.matview.sample;

import org.jspecify.annotations.NullMarked;
