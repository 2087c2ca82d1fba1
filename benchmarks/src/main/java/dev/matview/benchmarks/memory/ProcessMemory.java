package dev.matview.benchmarks.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the operating system and the JVM say about another process's memory and files. */
final class ProcessMemory {

  private static final Pattern RSS = Pattern.compile("^VmRSS:\\s+(\\d+) kB$", Pattern.MULTILINE);

  private static final Pattern NMT_TOTAL =
      Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB", Pattern.MULTILINE);

  private ProcessMemory() {}

  /** The resident set size of process {@code pid} from {@code /proc}, in bytes. */
  static long rssBytes(long pid) throws IOException {
    String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
    return kibibytes(RSS, status, 1, "VmRSS in /proc/" + pid + "/status");
  }

  /**
   * The memory the JVM of {@code pid} has committed for itself (heap, metaspace, threads, code, GC,
   * direct buffers...), from its native memory tracking, in bytes.
   */
  static long jvmCommittedBytes(long pid) throws IOException, InterruptedException {
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    Process process =
        new ProcessBuilder(jcmd, Long.toString(pid), "VM.native_memory", "summary")
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("jcmd " + pid + " did not answer within 60 s");
    }
    return kibibytes(NMT_TOTAL, output, 2, "the native memory summary of " + pid);
  }

  /** The disk blocks the files under {@code dir} take, preallocated space included, in bytes. */
  static long diskBytes(Path dir) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(List.of("du", "-sk", dir.toString())).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("du -sk " + dir + " failed: " + output);
    }
    return Long.parseLong(output.trim().split("\\s+")[0]) * 1024;
  }

  private static long kibibytes(Pattern pattern, String text, int group, String what)
      throws IOException {
    Matcher matcher = pattern.matcher(text);
    if (!matcher.find()) {
      throw new IOException("Found no " + what + " in: " + text.lines().limit(5).toList());
    }
    return Long.parseLong(matcher.group(group)) * 1024;
  }
}
