package dev.matview.replica;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies the stores of another supplier, wrapped so that each partition registers with the
 * handles and refuses updates too large for its changelog.
 */
final class RegisteringStoreSupplier implements KeyValueBytesStoreSupplier {

  private final KeyValueBytesStoreSupplier supplier;

  private final StoreHandles handles;

  private final ChangelogSizeCheck sizeCheck;

  RegisteringStoreSupplier(
      KeyValueBytesStoreSupplier supplier, StoreHandles handles, ChangelogSizeCheck sizeCheck) {
    this.supplier = supplier;
    this.handles = handles;
    this.sizeCheck = sizeCheck;
  }

  @Override
  public String name() {
    return this.supplier.name();
  }

  @Override
  public KeyValueStore<Bytes, byte[]> get() {
    return new RegisteredKeyValueStore(this.supplier.get(), this.handles, this.sizeCheck);
  }

  @Override
  public String metricsScope() {
    return this.supplier.metricsScope();
  }
}
