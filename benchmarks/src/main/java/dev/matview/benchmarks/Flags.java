package dev.matview.benchmarks;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Command-line flags of the form {@code --name=value}. */
public final class Flags {

  private final Map<String, String> values;

  private Flags(Map<String, String> values) {
    this.values = values;
  }

  /** Reads {@code args}; anything that is not {@code --name=value} is refused. */
  public static Flags parse(String... args) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String arg : args) {
      int equals = arg.indexOf('=');
      if (!arg.startsWith("--") || equals < 3) {
        throw new IllegalArgumentException("Expected --name=value, got '" + arg + "'");
      }
      values.put(arg.substring(2, equals), arg.substring(equals + 1));
    }
    return new Flags(values);
  }

  /** The flag's text, or {@code fallback} when it is not given. */
  public String text(String name, String fallback) {
    return this.values.getOrDefault(name, fallback);
  }

  /**
   * The flag as a whole number, or {@code fallback}; {@code 1000000}, {@code 1_000_000} or {@code
   * 1m}.
   */
  public int integer(String name, int fallback) {
    String value = this.values.get(name);
    if (value == null) {
      return fallback;
    }
    String plain = value.replace("_", "").toLowerCase(java.util.Locale.ROOT);
    int scale = plain.endsWith("k") ? 1_000 : plain.endsWith("m") ? 1_000_000 : 1;
    String digits = scale > 1 ? plain.substring(0, plain.length() - 1) : plain;
    try {
      return Math.multiplyExact(Integer.parseInt(digits), scale);
    } catch (NumberFormatException | ArithmeticException ex) {
      throw new IllegalArgumentException("--" + name + " must be a whole number, not " + value, ex);
    }
  }

  /** The flag as a number, or {@code fallback}. */
  public double decimal(String name, double fallback) {
    String value = this.values.get(name);
    try {
      return value != null ? Double.parseDouble(value) : fallback;
    } catch (NumberFormatException ex) {
      throw new IllegalArgumentException("--" + name + " must be a number, not " + value, ex);
    }
  }

  /** The flag as {@code true} or {@code false}, or {@code fallback}. */
  public boolean bool(String name, boolean fallback) {
    String value = this.values.get(name);
    if (value == null) {
      return fallback;
    }
    return switch (value.toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException("--" + name + " must be true or false, not " + value);
    };
  }

  /** The flag as a comma-separated list, or {@code fallback}. */
  public List<String> list(String name, List<String> fallback) {
    String value = this.values.get(name);
    return value != null && !value.isBlank()
        ? Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList()
        : fallback;
  }

  /** The names of every flag given. */
  public Set<String> names() {
    return this.values.keySet();
  }
}
