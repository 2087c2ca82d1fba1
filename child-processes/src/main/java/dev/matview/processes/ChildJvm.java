package dev.matview.processes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A Java process with its own {@code java.io.tmpdir}, its output appended to a log file, stopped
 * only by its own PID with SIGKILL; a shutdown hook kills every one still running when this JVM
 * exits.
 */
public final class ChildJvm {

  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(ChildJvm::killAll, "child-jvm-reaper"));
  }

  private final String name;

  private final List<String> command;

  private final Path tmpDir;

  private final Path logFile;

  private @Nullable Process process;

  /**
   * A process named {@code name} that runs {@code java <javaArguments>} with {@code tmpDir} as its
   * {@code java.io.tmpdir}, appending its output to {@code logFile}.
   */
  public ChildJvm(String name, List<String> javaArguments, Path tmpDir, Path logFile) {
    this.name = name;
    this.tmpDir = tmpDir;
    this.logFile = logFile;
    List<String> line = new ArrayList<>();
    line.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    line.add("-Djava.io.tmpdir=" + tmpDir);
    line.addAll(javaArguments);
    this.command = List.copyOf(line);
  }

  /**
   * A process named {@code name} that runs {@code mainClass} on this JVM's classpath with {@code
   * jvmOptions} and {@code arguments}; its temp dir is {@code tmp-<name>} and its log {@code
   * logs/<name>.log} under {@code workDir}.
   */
  public ChildJvm(
      String name,
      List<String> jvmOptions,
      Class<?> mainClass,
      List<String> arguments,
      Path workDir) {
    this(
        name,
        javaArguments(jvmOptions, mainClass, arguments),
        workDir.resolve("tmp-" + name),
        workDir.resolve("logs").resolve(name + ".log"));
  }

  /** Starts the process; it must not be running. */
  public synchronized void start() {
    if (isAlive()) {
      throw new IllegalStateException(this.name + " is already running");
    }
    try {
      Files.createDirectories(this.tmpDir);
      Files.createDirectories(this.logFile.getParent());
      Files.writeString(
          this.logFile,
          System.lineSeparator() + "=== starting " + this.name + System.lineSeparator(),
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      Process started =
          new ProcessBuilder(this.command)
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(this.logFile.toFile()))
              .start();
      RUNNING.add(started);
      this.process = started;
    } catch (IOException ex) {
      throw new UncheckedIOException("Could not start " + this.name, ex);
    }
  }

  /** Waits up to {@code bound} for the process to exit by itself and returns its exit code. */
  public int awaitExit(Duration bound) {
    Process running = requireStarted();
    try {
      if (!running.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
        throw new IllegalStateException(
            this.name + " did not finish within " + bound + "; see " + this.logFile);
      }
      RUNNING.remove(running);
      return running.exitValue();
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for " + this.name, ex);
    }
  }

  /**
   * Starts the process and waits up to {@code bound} for it to exit by itself; fails unless it
   * exited with 0 and wrote {@code output}, which it returns.
   */
  public Path runUntilItWrites(Path output, Duration bound) {
    start();
    int exit = awaitExit(bound);
    if (exit != 0 || !Files.exists(output)) {
      throw new IllegalStateException(
          this.name
              + " exited with "
              + exit
              + " without writing "
              + output
              + "; see "
              + this.logFile);
    }
    return output;
  }

  /** Sends SIGKILL to the process (kill -9 by its PID) and waits until it has gone. */
  public synchronized void kill() {
    if (this.process != null) {
      kill(this.process);
    }
  }

  /** Whether the process is running. */
  public synchronized boolean isAlive() {
    return this.process != null && this.process.isAlive();
  }

  /** The PID of the process last started, or -1 if none was. */
  public synchronized long pid() {
    return (this.process != null) ? this.process.pid() : -1;
  }

  /** The file the process writes its output to. */
  public Path logFile() {
    return this.logFile;
  }

  /** The process's name. */
  public String name() {
    return this.name;
  }

  private static List<String> javaArguments(
      List<String> jvmOptions, Class<?> mainClass, List<String> arguments) {
    List<String> line = new ArrayList<>(jvmOptions);
    line.add("-cp");
    line.add(System.getProperty("java.class.path"));
    line.add(mainClass.getName());
    line.addAll(arguments);
    return line;
  }

  private synchronized Process requireStarted() {
    if (this.process == null) {
      throw new IllegalStateException(this.name + " was never started");
    }
    return this.process;
  }

  /** Kills every child process still running. */
  public static void killAll() {
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
