package dev.matview.topology;

/**
 * A re-keyed view's record value as read from its source topic, beside the bytes it was read from:
 * the key selector reads the value, and the bytes cross the repartition topic as they came in,
 * instead of being encoded again.
 */
record SourceValue<V>(V value, byte[] bytes) {}
