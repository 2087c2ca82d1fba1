package dev.matview.rocksdb;

import org.rocksdb.InfoLogLevel;
import org.rocksdb.Logger;
import org.rocksdb.RocksDB;
import org.slf4j.LoggerFactory;

/**
 * The one RocksDB logger every store of the process shares: it passes RocksDB's errors to the
 * application's log (logger {@code org.rocksdb}) instead of each store writing its own {@code LOG}
 * file, whose open file and 64 KiB write buffer every store would otherwise hold.
 *
 * <p>RocksDB reports a fatal problem as an error and an error as a warning. The one error it logs
 * on every new store (its directory not found yet, before it creates it) goes to debug.
 */
final class RocksDBLogForwarder extends Logger {

  private static final org.slf4j.Logger log = LoggerFactory.getLogger("org.rocksdb");

  private RocksDBLogForwarder() {
    super(InfoLogLevel.ERROR_LEVEL);
  }

  /** Returns the process-wide forwarder, created on first use and never closed. */
  static RocksDBLogForwarder shared() {
    return Shared.FORWARDER;
  }

  @Override
  protected void log(InfoLogLevel level, String message) {
    String line = message.strip();
    if (level == InfoLogLevel.FATAL_LEVEL) {
      log.error(line);
    } else if (isNewStoreDirectoryNotFound(line)) {
      log.debug(line);
    } else {
      log.warn(line);
    }
  }

  private static boolean isNewStoreDirectoryNotFound(String line) {
    return line.startsWith("Error when reading") && line.contains("dir NotFound");
  }

  /** Creates the forwarder when first asked for, once RocksDB's native library is loaded. */
  private static final class Shared {

    static final RocksDBLogForwarder FORWARDER = create();

    private static RocksDBLogForwarder create() {
      RocksDB.loadLibrary();
      return new RocksDBLogForwarder();
    }
  }
}
