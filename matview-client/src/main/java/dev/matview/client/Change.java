package dev.matview.client;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One event of a key's change stream.
 *
 * @param kind what the event says
 * @param key the key, or {@code null} for {@link Kind#SKIPPED}
 * @param value the new value: of the key ({@link Kind#VALUE}) or of one window ({@link
 *     Kind#WINDOW}); otherwise {@code null}
 * @param windows the key's windows when a stream of a windowed or session view starts, else empty
 * @param start the window's start for {@link Kind#WINDOW} and {@link Kind#WINDOW_DELETED}
 * @param end the window's end for {@link Kind#WINDOW} and {@link Kind#WINDOW_DELETED}
 * @param id the event's id, which a reconnect sends back, or {@code null}
 * @param <K> the key type
 * @param <V> the value type
 */
public record Change<K, V>(
    Kind kind,
    @Nullable K key,
    @Nullable V value,
    List<Window<V>> windows,
    @Nullable Instant start,
    @Nullable Instant end,
    @Nullable String id) {

  /** What a change event says. */
  public enum Kind {
    /** The key's value: the current one when the stream starts, then each new one. */
    VALUE,
    /** The key has no value. */
    DELETED,
    /** The key's windows when a stream of a windowed or session view starts. */
    WINDOWS,
    /** One window's new value. */
    WINDOW,
    /** A window that no longer exists. */
    WINDOW_DELETED,
    /** The stream could not go on where it stopped: the current value follows. */
    SKIPPED
  }
}
