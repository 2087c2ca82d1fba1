package dev.matview.topology;

import org.apache.kafka.common.errors.SerializationException;

/**
 * A view's aggregate whose record on the view's changelog topic would exceed the producer's {@code
 * max.request.size} (or a smaller {@code topic.max.message.bytes}): refused by the view's store
 * before it keeps it, so that store and changelog never differ.
 */
public final class AggregateTooLargeException extends SerializationException {

  private static final long serialVersionUID = 1L;

  private final String view;

  AggregateTooLargeException(String view, long bytes, int maxBytes) {
    super(
        "The aggregate of view '"
            + view
            + "' would make a changelog record of "
            + bytes
            + " bytes (key, value and "
            + ChangelogSizeGuard.OVERHEAD
            + " bytes of record overhead), more than the limit of its changelog records, "
            + maxBytes
            + " bytes (the producer's max.request.size, or topic.max.message.bytes when smaller);"
            + " the view keeps its previous aggregate. Keep aggregates small (a bounded"
            + " collection, not every value) or raise"
            + " spring.kafka.streams.properties.producer.max.request.size and the changelog"
            + " topic's max.message.bytes together");
    this.view = view;
  }

  /** The view whose aggregate was refused. */
  public String view() {
    return this.view;
  }
}
