package dev.matview.replica;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.query.Position;

/**
 * The file in which a store keeps its {@link Position} from one commit to the next opening, in the
 * text that Kafka Streams' stores write to the same file ({@code <store>.position} in the task's
 * state dir): a version (0), the number of entries, then a line {@code topic partition offset} for
 * each. A store reopened on state that Kafka's store wrote, or the other way round, keeps its
 * position.
 */
final class PositionCheckpoint {

  private static final String VERSION = "0";

  private final Path file;

  PositionCheckpoint(Path file) {
    this.file = file;
  }

  /** The position the file holds; empty when there is none. */
  Position read() {
    try (BufferedReader reader = Files.newBufferedReader(this.file, StandardCharsets.UTF_8)) {
      String version = reader.readLine();
      if (!VERSION.equals(version)) {
        throw malformed("version " + version);
      }
      String count = reader.readLine();
      Map<String, Map<Integer, Long>> offsets = new HashMap<>();
      int entries = 0;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length != 3) {
          throw malformed("line '" + line + "'");
        }
        long offset = Long.parseLong(fields[2]);
        entries++;
        if (offset >= 0) {
          offsets
              .computeIfAbsent(fields[0], (topic) -> new HashMap<>())
              .put(Integer.parseInt(fields[1]), offset);
        }
      }
      if (count == null || Integer.parseInt(count.trim()) != entries) {
        throw malformed(entries + " entries where it announces " + count);
      }
      return Position.fromMap(offsets);
    } catch (NoSuchFileException ex) {
      return Position.emptyPosition();
    } catch (IOException | NumberFormatException ex) {
      throw new ProcessorStateException("Error reading checkpoint file " + this.file, ex);
    }
  }

  /** Replaces the file with {@code position}, atomically, or deletes it when it is empty. */
  void write(Position position) {
    try {
      if (position.isEmpty()) {
        Files.deleteIfExists(this.file);
        return;
      }
      Path temporary = this.file.resolveSibling(this.file.getFileName() + ".tmp");
      try (FileChannel channel =
          FileChannel.open(
              temporary,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        Writer writer = Channels.newWriter(channel, StandardCharsets.UTF_8);
        writer.write(text(position));
        writer.flush();
        channel.force(true);
      }
      move(temporary);
    } catch (IOException ex) {
      throw new ProcessorStateException("Error writing checkpoint file " + this.file, ex);
    }
  }

  private static String text(Position position) {
    StringBuilder lines = new StringBuilder();
    int entries = 0;
    for (String topic : position.getTopics()) {
      for (Map.Entry<Integer, Long> offset : position.getPartitionPositions(topic).entrySet()) {
        lines.append(topic).append(' ').append(offset.getKey());
        lines.append(' ').append(offset.getValue()).append('\n');
        entries++;
      }
    }
    return VERSION + "\n" + entries + "\n" + lines;
  }

  private void move(Path temporary) throws IOException {
    try {
      Files.move(
          temporary,
          this.file,
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException ex) {
      Files.move(temporary, this.file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private IOException malformed(String what) {
    return new IOException("Malformed position checkpoint " + this.file + ": " + what);
  }
}
