package dev.matview.client;

import java.time.Instant;

/**
 * One window of one key, as a scan of a windowed or session view answers it.
 *
 * @param key the key
 * @param start the window's start, inclusive
 * @param end the window's end: exclusive for time windows, inclusive for sessions
 * @param value the window's aggregate
 * @param <K> the view's key type
 * @param <V> the view's value type
 */
public record KeyWindow<K, V>(K key, Instant start, Instant end, V value) {}
