package dev.matview.test;

/**
 * One key of a view and its value, as a scan answers them.
 *
 * @param key the key
 * @param value its value
 * @param <K> the view's key type
 * @param <A> the view's value type
 */
public record ViewEntry<K, A>(K key, A value) {}
