package dev.matview.benchmarks;

import dev.matview.benchmarks.kafka.OrdersProducer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Keys drawn at random, and always the same ones, from the customers of a loaded view. */
public final class KeySample {

  private KeySample() {}

  /** {@code count} customer ids drawn from {@code customers}, in a fixed random order. */
  public static List<String> customers(long customers, int count) {
    SplittableRandom random = new SplittableRandom(8);
    List<String> keys = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      keys.add(OrdersProducer.customer(random.nextLong(customers), customers));
    }
    return keys;
  }

  /** The request paths of {@code keys} under {@code prefix}, such as {@code /views/v/keys/}. */
  public static List<String> paths(String prefix, List<String> keys) {
    return keys.stream().map(key -> prefix + key).toList();
  }
}
