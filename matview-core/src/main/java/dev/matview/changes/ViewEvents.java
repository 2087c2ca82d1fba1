package dev.matview.changes;

import dev.matview.replica.StoreChange;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The events of one view's store updates, each made once however many streams write it: every
 * stream of a partition hears the same update, so the events made last are kept by their update,
 * and a stream that writes one after another finds it made, decoded, encoded and its id signed.
 */
final class ViewEvents {

  /** How many events made last are kept, a power of two. */
  private static final int KEPT = 1024;

  private final String view;

  private final ChangeDecoder decoder;

  private final EventIds ids;

  private final AtomicReferenceArray<Made> made = new AtomicReferenceArray<>(KEPT);

  /** Events of {@code view}'s updates, read with {@code decoder}, whose ids {@code ids} writes. */
  ViewEvents(String view, ChangeDecoder decoder, EventIds ids) {
    this.view = view;
    this.decoder = decoder;
    this.ids = ids;
  }

  /** What reads the view's keys and values, for events that are not updates. */
  ChangeDecoder decoder() {
    return this.decoder;
  }

  /** The event of {@code change} of the view's {@code partition}, with its id. */
  ChangeEvent of(int partition, StoreChange change) {
    int slot = slot(partition, change);
    Made last = this.made.get(slot);
    if (last != null && last.change() == change) {
      return last.event();
    }
    ChangeEvent event = this.decoder.event(change, this.ids.of(this.view, partition, change));
    this.made.set(slot, new Made(change, event));
    return event;
  }

  private static int slot(int partition, StoreChange change) {
    long mixed = (change.offset() * 31 + change.sequence()) * 0x9E3779B97F4A7C15L + partition;
    return (int) (mixed >>> 40) & (KEPT - 1);
  }

  /** An event and the update it was made of. */
  private record Made(StoreChange change, ChangeEvent event) {}
}
