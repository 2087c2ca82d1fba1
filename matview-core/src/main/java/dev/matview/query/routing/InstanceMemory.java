package dev.matview.query.routing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * The instances of the application as this one last saw them running, kept in a file of the state
 * dir, so that after a restart it can ask them to route lookups before its own Kafka Streams knows
 * who owns what. A hint only: a file that is missing, unreadable or stale recalls fewer instances,
 * never fails a lookup.
 */
public final class InstanceMemory {

  /** The file's name, in the application's folder of the state dir. */
  public static final String FILE_NAME = "matview-instances";

  private static final Log logger = LogFactory.getLog(InstanceMemory.class);

  private static final Comparator<HostInfo> ORDER =
      Comparator.comparing(HostInfo::host).thenComparingInt(HostInfo::port);

  private final @Nullable Supplier<Path> file;

  private volatile @Nullable List<HostInfo> recalled;

  private InstanceMemory(@Nullable Supplier<Path> file) {
    this.file = file;
    if (file == null) {
      this.recalled = List.of();
    }
  }

  /** A memory kept in the file that {@code file} names once asked, read at most once. */
  public static InstanceMemory inFile(Supplier<Path> file) {
    return new InstanceMemory(file);
  }

  /** A memory that recalls nothing and keeps nothing. */
  public static InstanceMemory none() {
    return new InstanceMemory(null);
  }

  /** The instances remembered, in a fixed order; read from the file on the first call. */
  public List<HostInfo> recalled() {
    List<HostInfo> known = this.recalled;
    if (known == null) {
      known = read();
      this.recalled = known;
    }
    return known;
  }

  /** Remembers {@code hosts}, the instances of a running assignment, unless nothing changed. */
  public void remember(Set<HostInfo> hosts) {
    Supplier<Path> target = this.file;
    List<HostInfo> sorted = hosts.stream().sorted(ORDER).toList();
    if (target == null || hosts.isEmpty() || sorted.equals(this.recalled)) {
      return;
    }
    this.recalled = sorted;
    Path path = target.get();
    StringBuilder lines = new StringBuilder();
    sorted.forEach(
        (host) -> lines.append(host.host()).append(':').append(host.port()).append('\n'));
    try {
      Files.createDirectories(path.toAbsolutePath().getParent());
      Path written = path.resolveSibling(path.getFileName() + ".tmp");
      Files.writeString(written, lines, StandardCharsets.UTF_8);
      Files.move(
          written, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException ex) {
      logger.warn(
          "Cannot keep the instances of the application in "
              + path
              + "; after a restart this instance answers lookups only once Kafka Streams assigned"
              + " it ("
              + ex
              + ")");
    }
  }

  private List<HostInfo> read() {
    Path path = this.file != null ? this.file.get() : null;
    if (path == null) {
      return List.of();
    }
    try {
      Set<HostInfo> hosts = new LinkedHashSet<>();
      for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
        HostInfo host = parse(line.trim());
        if (host != null) {
          hosts.add(host);
        }
      }
      return List.copyOf(hosts);
    } catch (NoSuchFileException ex) {
      return List.of();
    } catch (IOException | RuntimeException ex) {
      logger.warn("Cannot read the instances of the application from " + path + " (" + ex + ")");
      return List.of();
    }
  }

  private static @Nullable HostInfo parse(String line) {
    int colon = line.lastIndexOf(':');
    if (colon <= 0 || colon == line.length() - 1) {
      return null;
    }
    try {
      int port = Integer.parseInt(line.substring(colon + 1));
      return (port > 0 && port < 65536) ? new HostInfo(line.substring(0, colon), port) : null;
    } catch (NumberFormatException ex) {
      return null;
    }
  }
}
