package dev.matview.query;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.topology.ResolvedView;
import java.util.Arrays;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * The bounds and page size a scan asks for, read and checked with a 400 that says what is wrong.
 */
public final class ScanBounds {

  private final KeyParser keyParser;

  private final int maxPageSize;

  public ScanBounds(KeyParser keyParser, int maxPageSize) {
    this.keyParser = keyParser;
    this.maxPageSize = maxPageSize;
  }

  public int limit(ResolvedView<?, ?, ?> view, int limit) {
    if (limit < 1 || limit > this.maxPageSize) {
      throw new InvalidQueryException(
          view.name(),
          "limit",
          "'limit' must be between 1 and " + this.maxPageSize + ", was " + limit);
    }
    return limit;
  }

  public <K> @Nullable K key(ResolvedView<K, ?, ?> view, String parameter, @Nullable String raw) {
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    try {
      return this.keyParser.parse(view.definition().keyType(), raw);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), parameter, "Bound '" + parameter + "': " + ex.getMessage());
    }
  }

  /**
   * Refuses key bounds whose {@code from} sorts after {@code to}: keys are compared as the store
   * orders them, by their serialized bytes, so such a scan could never find a key.
   */
  public static <K> void requireOrdered(
      ResolvedView<K, ?, ?> view,
      @Nullable String rawFrom,
      @Nullable K from,
      @Nullable String rawTo,
      @Nullable K to) {
    if (from == null || to == null) {
      return;
    }
    Serializer<K> serializer = view.keySerde().serializer();
    byte[] fromBytes = serializer.serialize(view.storeName(), from);
    byte[] toBytes = serializer.serialize(view.storeName(), to);
    if (Arrays.compareUnsigned(fromBytes, toBytes) > 0) {
      throw new InvalidQueryException(
          view.name(),
          "from",
          "'from' ("
              + rawFrom
              + ") must not be after 'to' ("
              + rawTo
              + "); keys are ordered as stored, by their serialized bytes");
    }
  }

  /**
   * Refuses a key to resume after ({@code afterKey}) that lies outside the bounds [from, to]: a
   * scan resumed there would read keys outside them.
   */
  public static <K> void requireWithin(
      ResolvedView<K, ?, ?> view, String rawAfter, K after, @Nullable K from, @Nullable K to) {
    Serializer<K> serializer = view.keySerde().serializer();
    byte[] afterBytes = serializer.serialize(view.storeName(), after);
    boolean beforeFrom =
        from != null
            && Arrays.compareUnsigned(afterBytes, serializer.serialize(view.storeName(), from)) < 0;
    boolean afterTo =
        to != null
            && Arrays.compareUnsigned(afterBytes, serializer.serialize(view.storeName(), to)) > 0;
    if (beforeFrom || afterTo) {
      throw new InvalidQueryException(
          view.name(),
          "afterKey",
          "'afterKey' ("
              + rawAfter
              + ") lies outside [from, to]; pass the last key a scan with the same bounds"
              + " returned");
    }
  }
}
