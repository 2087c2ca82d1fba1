package dev.matview.replica;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import org.apache.kafka.streams.processor.StateStore;
import org.jspecify.annotations.Nullable;

/**
 * The open partitions of one kind of store (table, window or session) on this instance, by store
 * name and partition: each registers a handle when Kafka Streams opens it and leaves when Kafka
 * Streams closes it. Reading a handle takes no lock.
 */
final class OpenPartitions<S extends StateStore, H extends PartitionHandle> {

  private final ConcurrentMap<String, PartitionSlots<H>> stores = new ConcurrentHashMap<>();

  private final Handles<S, H> handles;

  private final BiConsumer<String, Integer> opened;

  /**
   * Partitions whose handles {@code handles} makes of the store and its partition, each opening
   * told to {@code opened} by store name and partition.
   */
  OpenPartitions(Handles<S, H> handles, BiConsumer<String, Integer> opened) {
    this.handles = handles;
    this.opened = opened;
  }

  /** Registers {@code store}, just opened as {@code partition} of the store {@code name}. */
  H opened(String name, int partition, S store) {
    H handle = this.handles.of(name, store, partition);
    this.stores
        .computeIfAbsent(name, (ignored) -> new PartitionSlots<>(PartitionHandle::partition))
        .put(handle);
    this.opened.accept(name, partition);
    return handle;
  }

  /** Forgets {@code store}, about to close, unless another store took its partition since. */
  void closed(String name, int partition, S store) {
    PartitionSlots<H> slots = this.stores.get(name);
    if (slots != null) {
      slots.remove(partition, (held) -> held.store() == store);
    }
  }

  /** The open handle of {@code partition} of the store {@code name}, or {@code null}. */
  @Nullable H get(String name, int partition) {
    PartitionSlots<H> slots = this.stores.get(name);
    return (slots != null) ? slots.get(partition) : null;
  }

  /** Tells {@code action} of each open partition's handle. */
  void forEach(Consumer<H> action) {
    this.stores.forEach((name, slots) -> slots.forEach(action));
  }

  /** The sum of {@code measure} over the open partitions of each store, by store name. */
  Map<String, Long> sums(ToLongFunction<H> measure) {
    Map<String, Long> sums = new HashMap<>();
    this.stores.forEach((name, slots) -> sums.put(name, slots.sum(measure)));
    return sums;
  }

  /** Makes the handle of a store just opened. */
  @FunctionalInterface
  interface Handles<S, H> {

    /** The handle of {@code store}, just opened as {@code partition} of the store {@code name}. */
    H of(String name, S store, int partition);
  }
}
