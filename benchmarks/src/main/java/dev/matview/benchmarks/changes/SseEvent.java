package dev.matview.benchmarks.changes;

import org.jspecify.annotations.Nullable;

/**
 * One Server-Sent Event as a client reads it.
 *
 * @param name the event's name ({@code value}, {@code deleted}, ...), {@code message} when unnamed
 * @param id the event's id, or {@code null} when it has none
 * @param data the event's data, its lines joined by a line feed
 * @param receivedNanos when its last line arrived, by {@link System#nanoTime()}
 */
record SseEvent(String name, @Nullable String id, String data, long receivedNanos) {}
