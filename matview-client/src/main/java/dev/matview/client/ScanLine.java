package dev.matview.client;

import org.jspecify.annotations.Nullable;

/**
 * One line of a streamed scan: an item, or the last line, which says where the scan stopped.
 *
 * @param item the line's item, {@code null} on the last line
 * @param nextCursor where the scan resumes, {@code null} when it reached its end
 * @param problem the problem detail that stopped the scan early, as the refusal it stands for
 * @param <T> the type of the items
 */
record ScanLine<T>(@Nullable T item, @Nullable String nextCursor, @Nullable RawAnswer problem) {

  static <T> ScanLine<T> of(T item) {
    return new ScanLine<>(item, null, null);
  }

  static <T> ScanLine<T> last(@Nullable String nextCursor, @Nullable RawAnswer problem) {
    return new ScanLine<>(null, nextCursor, problem);
  }
}
