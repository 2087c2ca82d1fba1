package dev.matview.client;

import org.jspecify.annotations.Nullable;

/**
 * The answer of a batch lookup for one key.
 *
 * @param key the key as asked
 * @param found whether the key has a value
 * @param value its value, {@code null} when not found
 * @param <K> the view's key type
 * @param <V> the view's value type
 */
public record BatchItem<K, V>(K key, boolean found, @Nullable V value) {}
