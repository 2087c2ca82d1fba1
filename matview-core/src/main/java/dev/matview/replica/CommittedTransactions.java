package dev.matview.replica;

/**
 * Runs on a stream thread once its producer's transaction committed, under exactly-once: every
 * table store partition that thread writes holds committed state only, until the thread processes
 * its next record, so each pins that state for reads of committed state, with how far it applied.
 */
final class CommittedTransactions implements Runnable {

  private final OpenPartitions<?, ReplicaHandle> tables;

  CommittedTransactions(OpenPartitions<?, ReplicaHandle> tables) {
    this.tables = tables;
  }

  @Override
  public void run() {
    Thread thread = Thread.currentThread();
    this.tables.forEach(
        (handle) -> {
          if (handle.writtenBy(thread)) {
            handle.committed();
          }
        });
  }
}
