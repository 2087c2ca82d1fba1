package dev.matview.topology;

import dev.matview.replica.StorePositions;
import dev.matview.view.ViewDefinition;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.jspecify.annotations.Nullable;

/**
 * The records each view aggregates, added to a {@link StreamsBuilder}: one source per topic, each
 * view's records decoded ({@link RecordDecoder}: value, null checks and event time bounds, before
 * anything reaches an internal topic), then with the view's key, through a repartition topic when
 * the view groups by a key computed from the value. The records of the topic that feeds the view's
 * store tell its partition how far it has applied that topic ({@link AppliedOffsetTracker}).
 */
final class ViewRecords {

  private final Map<String, KStream<?, byte[]>> sources = new HashMap<>();

  private final StreamsBuilder builder;

  private final RecordRules rules;

  private final StorePositions positions;

  ViewRecords(StreamsBuilder builder, RecordRules rules, StorePositions positions) {
    this.builder = builder;
    this.rules = rules;
    this.positions = positions;
  }

  /**
   * A view's records decoded, with the view's key: the source records themselves, or re-keyed
   * through the repartition topic, which carries each value as the bytes it was read from.
   */
  @SuppressWarnings("unchecked")
  <K, V, A> KStream<K, V> keyed(ResolvedView<K, V, A> view) {
    Function<? super V, ? extends @Nullable K> keySelector = view.definition().keySelector();
    if (keySelector == null) {
      KStream<Object, V> decoded =
          decoded(view, tracked(view, source(view), false), (value, bytes) -> value);
      return (KStream<K, V>) (KStream<?, V>) decoded;
    }
    KStream<Object, SourceValue<V>> decoded = decoded(view, source(view), SourceValue::new);
    return tracked(view, rekeyed(view, decoded, keySelector), true)
        .processValues(
            () -> new RepartitionedValueReader<K, V>(view.name(), view.valueSerde().deserializer()),
            Named.as(ProcessorNames.repartitionedDecoder(view.name())));
  }

  /**
   * {@code input} decoded for {@code view}, each record's value made into what {@code output}
   * makes.
   */
  private <V, O> KStream<Object, O> decoded(
      ResolvedView<?, V, ?> view, KStream<Object, byte[]> input, BiFunction<V, byte[], O> output) {
    ViewDefinition<?, V, ?> definition = view.definition();
    return input.processValues(
        () ->
            new RecordDecoder<>(
                view.name(),
                view.valueSerde().deserializer(),
                definition.eventTime(),
                definition.keySelector() == null,
                this.rules.eventTime(),
                this.rules.drops(),
                output),
        Named.as(ProcessorNames.decoder(view.name())));
  }

  @SuppressWarnings("unchecked")
  private KStream<Object, byte[]> source(ResolvedView<?, ?, ?> view) {
    return (KStream<Object, byte[]>)
        this.sources.computeIfAbsent(
            view.sourceTopic(),
            topic ->
                this.builder.stream(
                    topic,
                    Consumed.with((Serde<Object>) view.sourceKeySerde(), Serdes.ByteArray())
                        .withName(ProcessorNames.source(topic))));
  }

  /**
   * {@code records} with the view's key, through a repartition topic named as {@code groupBy} would
   * name it, as the bytes their values were read from.
   */
  private static <K, V, A> KStream<K, byte[]> rekeyed(
      ResolvedView<K, V, A> view,
      KStream<Object, SourceValue<V>> records,
      Function<? super V, ? extends @Nullable K> keySelector) {
    String name = view.name();
    return records
        .<K>selectKey(
            (key, value) -> groupKey(name, keySelector, value.value()),
            Named.as(ProcessorNames.keySelector(name)))
        .processValues(
            InputOffsetHeader.Stamp<K, V>::new, Named.as(ProcessorNames.inputStamp(name)))
        .repartition(
            Repartitioned.<K, byte[]>as(name)
                .withKeySerde(view.keySerde())
                .withValueSerde(Serdes.ByteArray()));
  }

  /**
   * {@code records} of the topic that feeds the view's store, each of which tells the store
   * partition how far it has applied that topic once the view has processed it.
   */
  private <K, V> KStream<K, V> tracked(
      ResolvedView<?, ?, ?> view, KStream<K, V> records, boolean rekeyed) {
    StorePositions positions = this.positions;
    String store = view.storeName();
    return records.processValues(
        () -> new AppliedOffsetTracker<K, V>(positions, store, rekeyed),
        Named.as(ProcessorNames.appliedOffsets(view.name())));
  }

  private static <K, V> K groupKey(
      String view, Function<? super V, ? extends @Nullable K> keySelector, V value) {
    K groupKey = keySelector.apply(value);
    if (groupKey == null) {
      throw RecordDecodingException.nullKey(view, true);
    }
    return groupKey;
  }
}
