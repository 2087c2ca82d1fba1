/**
 * Where each partition of each view lives: the replica directory that Kafka Streams' metadata
 * fills, the instances and their partitions, this instance's own identity, and the routing that
 * places a key on its replicas without a call to the broker.
 */
@NullMarked
package dev.matview.query.routing;

import org.jspecify.annotations.NullMarked;
