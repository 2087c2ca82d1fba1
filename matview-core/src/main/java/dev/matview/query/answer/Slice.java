package dev.matview.query.answer;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Part of one partition's items in scan order, the position of the last, and whether more follow.
 */
public record Slice<T>(List<T> items, @Nullable ScanPosition last, boolean exhausted) {}
