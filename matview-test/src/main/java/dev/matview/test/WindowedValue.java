package dev.matview.test;

import java.time.Instant;

/**
 * The value of a key in one window of a windowed or session view.
 *
 * @param start the window's start, inclusive
 * @param end the window's end: exclusive for time windows, inclusive (the last record's time) for
 *     sessions
 * @param value the window's aggregate
 * @param <A> the view's value type
 */
public record WindowedValue<A>(Instant start, Instant end, A value) {}
