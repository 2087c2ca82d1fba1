package dev.matview.benchmarks.changes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What is live on another JVM's heap, by class, from {@code jcmd <pid> GC.class_histogram}, which
 * runs a full GC first, so the total is the heap used after a GC.
 *
 * @param bytesByClass the bytes of each class's live objects
 * @param totalBytes the bytes of every live object
 */
record HeapHistogram(Map<String, Long> bytesByClass, long totalBytes) {

  private static final Pattern CLASS_LINE =
      Pattern.compile("^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE);

  private static final Pattern TOTAL_LINE =
      Pattern.compile("^Total\\s+\\d+\\s+(\\d+)", Pattern.MULTILINE);

  /** The live objects of the JVM {@code pid} after a full GC. */
  static HeapHistogram of(long pid) throws IOException, InterruptedException {
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    Process process =
        new ProcessBuilder(jcmd, Long.toString(pid), "GC.class_histogram")
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("jcmd " + pid + " GC.class_histogram did not answer within 60 s");
    }
    Matcher total = TOTAL_LINE.matcher(output);
    if (!total.find()) {
      throw new IOException("No total in jcmd " + pid + " GC.class_histogram: " + output);
    }
    Map<String, Long> bytes = new HashMap<>();
    Matcher line = CLASS_LINE.matcher(output);
    while (line.find()) {
      bytes.merge(line.group(2), Long.parseLong(line.group(1)), Long::sum);
    }
    return new HeapHistogram(Map.copyOf(bytes), Long.parseLong(total.group(1)));
  }

  /** The {@code count} classes whose live bytes grew most since {@code before}, most first. */
  List<Map.Entry<String, Long>> grownSince(HeapHistogram before, int count) {
    return this.bytesByClass.entrySet().stream()
        .map(
            entry ->
                Map.entry(
                    entry.getKey(),
                    entry.getValue() - before.bytesByClass.getOrDefault(entry.getKey(), 0L)))
        .sorted(Comparator.comparing(Map.Entry<String, Long>::getValue).reversed())
        .limit(count)
        .toList();
  }
}
