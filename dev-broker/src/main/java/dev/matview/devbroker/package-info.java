/**
 * Matview's development broker: a Kafka broker in the application's own JVM while it is developed
 * and tested, handed to every Kafka client as Spring Boot's {@code KafkaConnectionDetails}.
 */
@NullMarked
package dev.matview.devbroker;

import org.jspecify.annotations.NullMarked;
