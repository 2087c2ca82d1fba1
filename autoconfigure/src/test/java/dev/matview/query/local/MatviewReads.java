package dev.matview.query.local;

import dev.matview.position.Isolation;
import dev.matview.position.ReadBound;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.answer.WindowValue;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * What each read path of {@link LocalStores} answers of one view on this instance, the layer that
 * every lookup, batch, window lookup, change stream's windows, scan page and streamed scan slice of
 * a local partition runs: a table's key lookups and its scan, a windowed view's windows of each key
 * and its scan of windows, in pages of a random size and in one slice. Each answer is a map from
 * the entry (a key, or a key's window) to its value as JSON; an entry answered more than once is
 * kept once more under a name that says so, so that no reference can equal it.
 */
final class MatviewReads {

  private static final int WHOLE = 1_000_000;

  private static final ReadBound COMMITTED = ReadBound.NONE.withIsolation(Isolation.COMMITTED);

  private static final ReadBound UNCOMMITTED = ReadBound.NONE.withIsolation(Isolation.UNCOMMITTED);

  /** More pages than any scan here can take, but for one that never ends. */
  private static final int MAX_PAGES = 100_000;

  private final LocalStores stores;

  private final JsonMapper mapper;

  MatviewReads(LocalStores stores, JsonMapper mapper) {
    this.stores = stores;
    this.mapper = mapper;
  }

  /** How an entry is named in every answer: a table's key, or a key's window. */
  static String entry(Object key, Instant start, Instant end) {
    return key + "@" + start + "/" + end;
  }

  /**
   * Every read path's answer for {@code view} (of partition 0), by path: the lookups of each of
   * {@code keys} and the scans, of windows whose start lies in [from, to].
   */
  Map<String, Map<String, String>> read(
      ResolvedView<String, ?, ?> view, List<String> keys, Instant from, Instant to, Random random) {
    Map<String, Map<String, String>> answers = new LinkedHashMap<>();
    ViewWindow window = view.window();
    int pageSize = 4 + random.nextInt(40);
    if (window == null) {
      answers.put("key lookups", tableLookups(view, keys));
      answers.put("scan in pages of " + pageSize, tableScan(view, pageSize));
      answers.put("scan in one slice", tableScan(view, WHOLE));
    } else {
      answers.put("window lookups", windowLookups(view, window, keys, from, to));
      answers.put("scan in pages of " + pageSize, windowScan(view, window, from, to, pageSize));
      answers.put("scan in one slice", windowScan(view, window, from, to, WHOLE));
    }
    return answers;
  }

  /**
   * What a table view's key lookups and scan answer of the state its last committed transaction
   * left (of partition 0), by path.
   */
  Map<String, Map<String, String>> committed(ResolvedView<String, ?, ?> view, List<String> keys) {
    Map<String, Map<String, String>> answers = new LinkedHashMap<>();
    answers.put("committed key lookups", tableLookups(view, keys, COMMITTED));
    answers.put("committed scan", tableScan(view, WHOLE, true));
    return answers;
  }

  private Map<String, String> tableLookups(ResolvedView<String, ?, ?> view, List<String> keys) {
    return tableLookups(view, keys, UNCOMMITTED);
  }

  private Map<String, String> tableLookups(
      ResolvedView<String, ?, ?> view, List<String> keys, ReadBound bound) {
    Map<String, String> found = new TreeMap<>();
    for (String key : keys) {
      Object value = this.stores.get(view, key, 0, true, bound);
      if (value != null) {
        add(found, key, value);
      }
    }
    return found;
  }

  private Map<String, String> tableScan(ResolvedView<String, ?, ?> view, int pageSize) {
    return tableScan(view, pageSize, false);
  }

  private Map<String, String> tableScan(
      ResolvedView<String, ?, ?> view, int pageSize, boolean committed) {
    Map<String, String> found = new TreeMap<>();
    ScanPosition after = null;
    for (int pages = 0; pages < MAX_PAGES; pages++) {
      Slice<KeyItem> slice =
          this.stores.keys(view, 0, null, null, after, pageSize, true, committed);
      slice.items().forEach(item -> add(found, String.valueOf(item.key()), item.value()));
      if (slice.exhausted() || slice.last() == null) {
        return found;
      }
      after = slice.last();
    }
    found.put("more than " + MAX_PAGES + " pages", "");
    return found;
  }

  private Map<String, String> windowLookups(
      ResolvedView<String, ?, ?> view,
      ViewWindow window,
      List<String> keys,
      Instant from,
      Instant to) {
    Map<String, String> found = new TreeMap<>();
    for (String key : keys) {
      for (WindowValue value : this.stores.windows(view, window, key, 0, from, to, true)) {
        add(found, entry(key, value.start(), value.end()), value.value());
      }
    }
    return found;
  }

  private Map<String, String> windowScan(
      ResolvedView<String, ?, ?> view, ViewWindow window, Instant from, Instant to, int pageSize) {
    Map<String, String> found = new TreeMap<>();
    ScanPosition after = null;
    for (int pages = 0; pages < MAX_PAGES; pages++) {
      Slice<WindowItem> slice =
          this.stores.windowItems(view, window, 0, from, to, after, pageSize, true);
      slice
          .items()
          .forEach(item -> add(found, entry(item.key(), item.start(), item.end()), item.value()));
      if (slice.exhausted() || slice.last() == null) {
        return found;
      }
      after = slice.last();
    }
    found.put("more than " + MAX_PAGES + " pages", "");
    return found;
  }

  private void add(Map<String, String> found, String entry, @Nullable Object value) {
    String json = this.mapper.writeValueAsString(value);
    String name = entry;
    for (int answered = 2; found.containsKey(name); answered++) {
      name = entry + " (answered " + answered + " times)";
    }
    found.put(name, json);
  }
}
