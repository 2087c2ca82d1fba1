package dev.matview.query.answer;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** One page of a scan, ordered by partition then key, and where the next page starts. */
public record ScanPage<T>(List<T> items, @Nullable String nextCursor) {}
