package dev.matview.query.peer;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.local.LocalRead;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One read that the replicas of a partition are asked for in turn: a key's lookup ({@code key}) or
 * a slice of a scan (no key), read here by {@code read} or at {@code pathInView} of another
 * instance within {@code timeout}.
 */
record Asked<T>(
    ResolvedView<?, ?, ?> view,
    @Nullable Object key,
    KeyReplicas replicas,
    CallerContext caller,
    PeerTarget pathInView,
    LocalRead<T> read,
    Duration timeout) {}
