package dev.matview.query.answer;

import java.time.Duration;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/** No replica may answer for a view's key right now; the caller should retry later. */
public class ViewUnavailableException extends RuntimeException {

  private static final Log logger = LogFactory.getLog(ViewUnavailableException.class);

  private final String view;

  private final @Nullable Object key;

  private final @Nullable Integer partition;

  private final Duration retryAfter;

  /** An exception for {@code view} saying why it cannot answer and when to retry. */
  public ViewUnavailableException(
      String view,
      @Nullable Object key,
      @Nullable Integer partition,
      String detail,
      Duration retryAfter) {
    super(detail);
    this.view = view;
    this.key = key;
    this.partition = partition;
    this.retryAfter = retryAfter;
  }

  /** A forwarded request reached this instance, but the key's partition belongs to another. */
  public static ViewUnavailableException notOwner(
      String view, @Nullable Object key, PartitionOwner owner) {
    if (logger.isDebugEnabled()) {
      logger.debug(
          "A forwarded request for partition "
              + owner.partition()
              + " of view '"
              + view
              + "' reached this instance, but its metadata says "
              + owner.describe()
              + " owns it");
    }
    return new ViewUnavailableException(
        view,
        key,
        owner.partition(),
        "This instance received a forwarded request for partition "
            + owner.partition()
            + " of view '"
            + view
            + "', which its metadata says another instance owns; the partition moved, so ask"
            + " again",
        Refusal.REBALANCE_RETRY);
  }

  /** The view asked. */
  public String getView() {
    return this.view;
  }

  /** The key asked, if any. */
  public @Nullable Object getKey() {
    return this.key;
  }

  /** The key's partition, if known. */
  public @Nullable Integer getPartition() {
    return this.partition;
  }

  /** How long the caller should wait before it asks again. */
  public Duration getRetryAfter() {
    return this.retryAfter;
  }
}
