package dev.matview.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.jspecify.annotations.Nullable;

/**
 * An exclusive lock on a broker's log dir, held in a file of its own in the dir from before the
 * broker formats or opens anything there until it has stopped: a second broker of the same dir, in
 * this JVM or another, is refused before it touches the first one's files (Kafka's own lock comes
 * only after the metadata log is open, and a broker refused by it has already disturbed that log).
 */
final class LogDirLock implements AutoCloseable {

  private final FileChannel channel;

  private final FileLock lock;

  private LogDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes the lock of {@code logDir}, or fails at once, naming the lock file, if it is held. */
  static LogDirLock acquire(Path logDir) {
    Path file = fileOf(logDir);
    FileChannel channel = null;
    try {
      Files.createDirectories(logDir);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel);
      if (lock == null) {
        throw new IllegalStateException(
            "Another Kafka broker uses the log dir " + logDir + " (it holds " + file + ")");
      }
      return new LogDirLock(channel, lock);
    } catch (IOException ex) {
      closeQuietly(channel);
      throw new UncheckedIOException("Cannot lock the Kafka log dir " + logDir, ex);
    } catch (RuntimeException ex) {
      closeQuietly(channel);
      throw ex;
    }
  }

  /** The file that holds the lock of {@code logDir}, beside Kafka's own {@code .lock}. */
  static Path fileOf(Path logDir) {
    return logDir.resolve(".matview-broker.lock");
  }

  @Override
  public void close() {
    try {
      this.lock.release();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    } finally {
      closeQuietly(this.channel);
    }
  }

  private static @Nullable FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException ex) {
      return null;
    }
  }

  private static void closeQuietly(@Nullable FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // The lock goes with the channel; nothing else to undo.
      }
    }
  }
}
