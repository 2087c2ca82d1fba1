package dev.matview.position;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Which state a lookup may read under exactly-once: only what committed transactions left, which no
 * abort can take back, or also what the stream thread has applied since its last commit.
 */
public enum Isolation {

  /** Only state that committed transactions left: the default under exactly-once. */
  COMMITTED,

  /** State as applied, including updates that an abort of their transaction may take back. */
  UNCOMMITTED;

  /** The query parameter that names it on lookups, batches and scans. */
  public static final String PARAMETER = "isolation";

  /** Its value in the query parameter. */
  public String parameterValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The isolation that {@code value} names, {@code null} for none; throws {@link
   * IllegalArgumentException} naming the values allowed.
   */
  public static @Nullable Isolation parse(@Nullable String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    for (Isolation isolation : values()) {
      if (isolation.parameterValue().equals(value)) {
        return isolation;
      }
    }
    throw new IllegalArgumentException(
        "'" + PARAMETER + "' must be committed or uncommitted, was '" + value + "'");
  }
}
