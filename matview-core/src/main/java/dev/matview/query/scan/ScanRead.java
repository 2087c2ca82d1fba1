package dev.matview.query.scan;

import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import org.jspecify.annotations.Nullable;

/**
 * What a scan reads of each partition: items of {@code kind} of {@code view} within the bounds
 * {@code from} and {@code to} (query parameters of another instance's slice, when given), read here
 * by {@code local}, for {@code caller}.
 *
 * @param <T> the item type
 */
public record ScanRead<T>(
    ResolvedView<?, ?, ?> view,
    PeerSlices.Kind<T> kind,
    @Nullable Object from,
    @Nullable Object to,
    ScanSlices.LocalSlice<T> local,
    CallerContext caller) {}
