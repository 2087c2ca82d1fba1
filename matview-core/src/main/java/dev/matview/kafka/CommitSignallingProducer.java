package dev.matview.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A stream thread's transactional producer, unchanged, that runs a task on the thread each time a
 * transaction commits: under exactly-once that is the moment the thread's stores hold committed
 * state only, until it processes its next record.
 */
final class CommitSignallingProducer implements Producer<byte[], byte[]> {

  private final Producer<byte[], byte[]> delegate;

  private final Runnable committed;

  CommitSignallingProducer(Producer<byte[], byte[]> delegate, Runnable committed) {
    this.delegate = delegate;
    this.committed = committed;
  }

  @Override
  public void commitTransaction() {
    this.delegate.commitTransaction();
    this.committed.run();
  }

  @Override
  public void initTransactions() {
    this.delegate.initTransactions();
  }

  @Override
  public void beginTransaction() {
    this.delegate.beginTransaction();
  }

  @Override
  public void sendOffsetsToTransaction(
      Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
    this.delegate.sendOffsetsToTransaction(offsets, groupMetadata);
  }

  @Override
  public void abortTransaction() {
    this.delegate.abortTransaction();
  }

  @Override
  public void registerMetricForSubscription(KafkaMetric metric) {
    this.delegate.registerMetricForSubscription(metric);
  }

  @Override
  public void unregisterMetricFromSubscription(KafkaMetric metric) {
    this.delegate.unregisterMetricFromSubscription(metric);
  }

  @Override
  public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
    return this.delegate.send(record);
  }

  @Override
  public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
    return this.delegate.send(record, callback);
  }

  @Override
  public void flush() {
    this.delegate.flush();
  }

  @Override
  public List<PartitionInfo> partitionsFor(String topic) {
    return this.delegate.partitionsFor(topic);
  }

  @Override
  public Map<MetricName, ? extends Metric> metrics() {
    return this.delegate.metrics();
  }

  @Override
  public Uuid clientInstanceId(Duration timeout) {
    return this.delegate.clientInstanceId(timeout);
  }

  @Override
  public void close() {
    this.delegate.close();
  }

  @Override
  public void close(Duration timeout) {
    this.delegate.close(timeout);
  }
}
