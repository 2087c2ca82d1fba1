package dev.matview.query.peer;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.local.LocalRead;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One read that the replicas of a partition are asked for in turn: a key's lookup or a slice of a
 * scan.
 *
 * @param view the view read
 * @param key the key looked up, or {@code null} for a slice
 * @param replicas the partition's replicas
 * @param caller who asks, and what the answer must include
 * @param pathInView where another instance answers the same read
 * @param read how this instance reads it
 * @param timeout how long another instance may take to answer
 * @param <T> the type of this instance's answer
 */
record Asked<T>(
    ResolvedView<?, ?, ?> view,
    @Nullable Object key,
    KeyReplicas replicas,
    CallerContext caller,
    PeerTarget pathInView,
    LocalRead<T> read,
    Duration timeout) {}
