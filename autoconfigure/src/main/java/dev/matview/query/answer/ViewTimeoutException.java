package dev.matview.query.answer;

/** The instance that owns a partition did not answer a forwarded request in time. */
public class ViewTimeoutException extends RuntimeException {

  private final String view;

  private final int partition;

  private final String owner;

  /** An exception for {@code view}'s {@code partition}, whose {@code owner} did not answer. */
  public ViewTimeoutException(String view, int partition, String owner, String detail) {
    super(detail);
    this.view = view;
    this.partition = partition;
    this.owner = owner;
  }

  /** The view asked. */
  public String getView() {
    return this.view;
  }

  /** The partition whose owner was asked. */
  public int getPartition() {
    return this.partition;
  }

  /** The owner's {@code host:port}, for logs: it is never shown to callers. */
  public String getOwner() {
    return this.owner;
  }
}
