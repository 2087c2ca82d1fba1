package dev.matview.client;

import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.jspecify.annotations.Nullable;

/**
 * The items of a scan, one page after the other, each page asked for only when the one before is
 * used up.
 *
 * @param <T> the type of the items
 */
final class Pages<T> implements Iterator<T> {

  private final PageSource<T> source;

  private Iterator<T> current = Collections.emptyIterator();

  private @Nullable String cursor;

  private boolean last;

  private Pages(PageSource<T> source) {
    this.source = source;
  }

  /** A lazy, ordered stream of the items of the pages that {@code source} answers. */
  static <T> Stream<T> stream(PageSource<T> source) {
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(
            new Pages<>(source), Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  @Override
  public boolean hasNext() {
    while (!this.current.hasNext() && !this.last) {
      Page<T> page = this.source.page(this.cursor);
      this.current = page.items().iterator();
      this.cursor = page.nextCursor();
      this.last = (this.cursor == null);
    }
    return this.current.hasNext();
  }

  @Override
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException("The scan has no more items");
    }
    return this.current.next();
  }

  /** Answers the page that starts at a cursor. */
  @FunctionalInterface
  interface PageSource<T> {

    /** The page that starts at {@code cursor}, the first page when it is {@code null}. */
    Page<T> page(@Nullable String cursor);
  }
}
