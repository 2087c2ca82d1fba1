package dev.matview.replica;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/** Supplies Kafka's own store, wrapped so that each partition registers with the handles. */
final class RegisteringStoreSupplier implements KeyValueBytesStoreSupplier {

  private final KeyValueBytesStoreSupplier supplier;

  private final StoreHandles handles;

  RegisteringStoreSupplier(KeyValueBytesStoreSupplier supplier, StoreHandles handles) {
    this.supplier = supplier;
    this.handles = handles;
  }

  @Override
  public String name() {
    return this.supplier.name();
  }

  @Override
  public KeyValueStore<Bytes, byte[]> get() {
    return new RegisteredKeyValueStore(this.supplier.get(), this.handles);
  }

  @Override
  public String metricsScope() {
    return this.supplier.metricsScope();
  }
}
