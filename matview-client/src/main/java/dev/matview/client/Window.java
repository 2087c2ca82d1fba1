package dev.matview.client;

import java.time.Instant;

/**
 * The value of a key in one window of a windowed or session view.
 *
 * @param start the window's start, inclusive
 * @param end the window's end: exclusive for time windows, inclusive for sessions
 * @param value the window's aggregate
 * @param <V> the view's value type
 */
public record Window<V>(Instant start, Instant end, V value) {}
