package dev.matview.query.scan;

import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import org.jspecify.annotations.Nullable;

/**
 * What a scan reads of each partition: items of {@code kind} within [{@code from}, {@code to}],
 * read here by {@code local}, for {@code caller}.
 */
public record ScanRead<T>(
    ResolvedView<?, ?, ?> view,
    PeerSlices.Kind<T> kind,
    @Nullable Object from,
    @Nullable Object to,
    ScanSlices.LocalSlice<T> local,
    CallerContext caller) {}
