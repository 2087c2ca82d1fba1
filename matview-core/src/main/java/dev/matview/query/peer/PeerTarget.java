package dev.matview.query.peer;

import dev.matview.peer.PeerPath;
import dev.matview.position.ReadBound;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What a lookup asks another instance for: its path within the view and, for a lookup of one key of
 * a table view, that key as the path carries it, so that such lookups can travel together.
 */
@FunctionalInterface
public interface PeerTarget extends Supplier<PeerPath> {

  /** The key of a lookup of one key of a table view, or {@code null} for any other read. */
  default @Nullable String key() {
    return null;
  }

  /**
   * The query parameter that names the caller's input records ({@code after=}) on the path: a
   * partition slice's {@code after} is where it starts, so a slice names them otherwise.
   */
  default String recordParameter() {
    return ReadBound.RECORD_PARAMETER;
  }

  /** A slice of one partition at {@code path}, which names input records as slices do. */
  static PeerTarget ofSlice(Supplier<PeerPath> path) {
    return new PeerTarget() {
      @Override
      public PeerPath get() {
        return path.get();
      }

      @Override
      public String recordParameter() {
        return ReadBound.SLICE_RECORD_PARAMETER;
      }
    };
  }

  /** The lookup of {@code rawKey} in table view {@code view}. */
  static PeerTarget ofKey(String view, String rawKey) {
    return new PeerTarget() {
      @Override
      public PeerPath get() {
        return PeerPath.ofKey(view, rawKey);
      }

      @Override
      public String key() {
        return rawKey;
      }
    };
  }
}
