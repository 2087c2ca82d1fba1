package dev.matview.disk;

import java.io.File;
import java.nio.file.Path;

/**
 * The space left for Kafka Streams' state dir: the usable bytes of the file system that holds it,
 * which is what this process may still write there (reserved blocks and quotas excluded).
 *
 * <p>Asking costs one file-system call and no walk over files. Before Kafka Streams has created the
 * state dir, the space is read from its nearest existing parent, which lies on the same file system
 * unless a mount point is created in between.
 */
public final class StateDirSpace {

  private final Path stateDir;

  /** The space left for the state dir {@code stateDir}, made absolute. */
  public StateDirSpace(Path stateDir) {
    this.stateDir = stateDir.toAbsolutePath().normalize();
  }

  /** The state dir, absolute. */
  public Path stateDir() {
    return this.stateDir;
  }

  /** Bytes this process may still write on the state dir's file system, 0 if it cannot tell. */
  public long usableBytes() {
    for (Path path = this.stateDir; path != null; path = path.getParent()) {
      File file = path.toFile();
      if (file.exists()) {
        return file.getUsableSpace();
      }
    }
    return 0;
  }
}
