package dev.matview.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A Java process started by the suite: its own temp dir, its output appended to a log file, and
 * stopped only by its own PID with SIGKILL. Every process still running when the test JVM exits is
 * killed by a shutdown hook.
 */
final class ChildJvm {

  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(ChildJvm::killAll, "fault-suite-reaper"));
  }

  private final String name;

  private final List<String> arguments;

  private final Path tmpDir;

  private final Path logFile;

  private Process process;

  /**
   * A process named {@code name} that runs {@code java <arguments>} with {@code tmpDir} as its
   * {@code java.io.tmpdir}, writing its output to {@code logFile}.
   */
  ChildJvm(String name, List<String> arguments, Path tmpDir, Path logFile) {
    this.name = name;
    this.arguments = List.copyOf(arguments);
    this.tmpDir = tmpDir;
    this.logFile = logFile;
  }

  /** Starts the process; it must not be running. */
  synchronized void start() {
    if (this.process != null && this.process.isAlive()) {
      throw new IllegalStateException(this.name + " is already running as PID " + pid());
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Djava.io.tmpdir=" + this.tmpDir);
    command.addAll(this.arguments);
    try {
      Files.createDirectories(this.tmpDir);
      Files.createDirectories(this.logFile.getParent());
      Files.writeString(
          this.logFile,
          System.lineSeparator()
              + "=== fault suite: starting "
              + this.name
              + System.lineSeparator(),
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      this.process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(this.logFile.toFile()))
              .start();
    } catch (IOException ex) {
      throw new UncheckedIOException("Could not start " + this.name, ex);
    }
    RUNNING.add(this.process);
  }

  /** Sends SIGKILL to the process (kill -9 by its PID) and waits until it has gone. */
  synchronized void kill() {
    if (this.process != null) {
      kill(this.process);
    }
  }

  /** Whether the process is running. */
  synchronized boolean isAlive() {
    return this.process != null && this.process.isAlive();
  }

  /** The PID of the process last started, or -1 if none was. */
  synchronized long pid() {
    return (this.process != null) ? this.process.pid() : -1;
  }

  /** The file the process writes its output to. */
  Path logFile() {
    return this.logFile;
  }

  /** Kills every process the suite started that is still running. */
  static void killAll() {
    for (Process process : List.copyOf(RUNNING)) {
      kill(process);
    }
  }

  private static void kill(Process process) {
    // On Linux and macOS destroyForcibly sends SIGKILL to this PID only.
    process.destroyForcibly();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("PID " + process.pid() + " survived SIGKILL for 30s");
      }
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while killing PID " + process.pid(), ex);
    }
    RUNNING.remove(process);
  }
}
