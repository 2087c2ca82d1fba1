package dev.matview.client;

/**
 * A key of a table view and its value.
 *
 * @param key the key
 * @param value its value
 * @param <K> the view's key type
 * @param <V> the view's value type
 */
public record KeyValue<K, V>(K key, V value) {}
