package dev.matview.processes.http;

import org.jspecify.annotations.Nullable;

/**
 * One Server-Sent Event as a client reads it.
 *
 * @param name its {@code event:} field, {@code message} without one
 * @param id its {@code id:} field, or {@code null}
 * @param data its {@code data:} lines, joined by line breaks
 */
public record ServerSentEvent(String name, @Nullable String id, String data) {}
