package dev.matview.client;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

/**
 * What an answer's headers say about where it came from; each is {@code null} when the answer did
 * not carry it (scans and batches read many partitions and name no single replica).
 *
 * @param servedBy the {@code host:port} of the instance whose store answered ({@code
 *     Matview-Served-By})
 * @param replica {@code active} or {@code standby} ({@code Matview-Replica})
 * @param offsetLag the answering store partition's changelog lag in offsets ({@code
 *     Matview-Offset-Lag})
 * @param position the position of the answer ({@code Matview-Position}), an opaque token
 */
public record AnswerMetadata(
    @Nullable String servedBy,
    @Nullable String replica,
    @Nullable Long offsetLag,
    @Nullable String position) {

  /** The answer header that names the instance whose store answered. */
  public static final String SERVED_BY_HEADER = "Matview-Served-By";

  /** The answer header that says whether an active or a standby replica answered. */
  public static final String REPLICA_HEADER = "Matview-Replica";

  /** The answer header with the answering store partition's changelog lag. */
  public static final String OFFSET_LAG_HEADER = "Matview-Offset-Lag";

  /** The header of the position an answer was read at, and that a call asks to be answered at. */
  public static final String POSITION_HEADER = "Matview-Position";

  /** Whether a standby replica answered. */
  public boolean standby() {
    return "standby".equals(this.replica);
  }

  static AnswerMetadata of(HttpHeaders headers) {
    return new AnswerMetadata(
        headers.getFirst(SERVED_BY_HEADER),
        headers.getFirst(REPLICA_HEADER),
        offsetLag(headers.getFirst(OFFSET_LAG_HEADER)),
        headers.getFirst(POSITION_HEADER));
  }

  private static @Nullable Long offsetLag(@Nullable String header) {
    if (header == null) {
      return null;
    }
    try {
      return Long.valueOf(header.trim());
    } catch (NumberFormatException ex) {
      return null;
    }
  }
}
