package dev.matview.benchmarks.streamthread;

import dev.matview.replica.ChangeListener;
import dev.matview.replica.StoreChange;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Follows one key's updates as a change stream does, counting them into {@code heard}: it takes
 * what concerns its key and leaves the rest.
 */
final class KeyFollower implements ChangeListener {

  private final byte[] key;

  private final AtomicLong heard;

  KeyFollower(byte[] key, AtomicLong heard) {
    this.key = key;
    this.heard = heard;
  }

  @Override
  public void changed(StoreChange change) {
    if (Arrays.equals(this.key, change.key())) {
      this.heard.incrementAndGet();
    }
  }

  @Override
  public void closed() {}

  @Override
  public byte[] key() {
    return this.key;
  }
}
