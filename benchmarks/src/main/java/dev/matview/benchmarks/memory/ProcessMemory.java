package dev.matview.benchmarks.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** What the operating system and the JVM say about another process's memory and files. */
final class ProcessMemory {

  private static final Pattern RSS = Pattern.compile("^VmRSS:\\s+(\\d+) kB$", Pattern.MULTILINE);

  private static final Pattern NMT_TOTAL =
      Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB", Pattern.MULTILINE);

  private static final Pattern NMT_CATEGORY =
      Pattern.compile(
          "^-\\s+([A-Za-z][A-Za-z ]*?) \\(reserved=\\d+KB, committed=(\\d+)KB\\)",
          Pattern.MULTILINE);

  private ProcessMemory() {}

  /** The resident set size of process {@code pid} from {@code /proc}, in bytes. */
  static long rssBytes(long pid) throws IOException {
    String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
    return kibibytes(RSS, status, 1, "VmRSS in /proc/" + pid + "/status");
  }

  /**
   * The memory the JVM of {@code pid} has committed for itself (heap, metaspace, threads, code, GC,
   * direct buffers...), from its native memory tracking: the total and the largest categories.
   */
  static JvmMemory jvmCommitted(long pid) throws IOException, InterruptedException {
    String summary = nativeMemorySummary(pid);
    long total = kibibytes(NMT_TOTAL, summary, 2, "the native memory summary of " + pid);
    Map<String, Long> categories = new LinkedHashMap<>();
    Matcher category = NMT_CATEGORY.matcher(summary);
    while (category.find()) {
      categories.put(category.group(1).trim(), Long.parseLong(category.group(2)) * 1024);
    }
    return new JvmMemory(total, categories);
  }

  private static String nativeMemorySummary(long pid) throws IOException, InterruptedException {
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
    return output;
  }

  /**
   * What native memory tracking says the JVM committed.
   *
   * @param totalBytes the total committed
   * @param categoryBytes committed bytes by category, such as {@code Java Heap} or {@code Other}
   *     (direct buffers), in the summary's order
   */
  record JvmMemory(long totalBytes, Map<String, Long> categoryBytes) {

    /** The categories of at least {@code bytes}, as {@code Java Heap 512 MB, Class 70 MB}. */
    String largest(long bytes) {
      return this.categoryBytes.entrySet().stream()
          .filter(category -> category.getValue() >= bytes)
          .map(category -> category.getKey() + " " + category.getValue() / (1024 * 1024) + " MB")
          .collect(Collectors.joining(", "));
    }
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
