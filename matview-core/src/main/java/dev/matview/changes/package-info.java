/**
 * Change streams: the updates of a view's keys as they happen, from the store partitions that
 * process them ({@link dev.matview.replica.ChangeFeed}), to each stream's bounded queue, to a sink
 * (an SSE response in {@code web}); each event carries its position as its id, so that a stream
 * that reconnects goes on where it stopped while the partition's feed still holds it. A key whose
 * partition another instance owns is relayed from that instance's stream. Nothing here knows HTTP
 * but the relay's upstream request.
 */
@NullMarked
package dev.matview.changes;

import org.jspecify.annotations.NullMarked;
