package dev.matview.autoconfigure;

import org.apache.catalina.connector.Connector;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;

/** What Matview changes in a Tomcat connector so that a key holding a slash fits in a path. */
final class EncodedSlashes {

  private EncodedSlashes() {}

  /** Has {@code connector} pass {@code %2F} through, still encoded, unless the user chose. */
  static void passThrough(Connector connector) {
    if (connector.getEncodedSolidusHandlingInternal() == EncodedSolidusHandling.REJECT) {
      connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
    }
  }
}
