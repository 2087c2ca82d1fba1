package dev.matview.autoconfigure;

import org.apache.catalina.connector.Connector;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;

/** What Matview changes in a Tomcat connector so that a key holding a slash fits in a path. */
final class EncodedSlashes {

  private EncodedSlashes() {}

  /**
   * Has {@code connector} pass an encoded slash ({@code %2F}) through, still encoded, where by
   * default it refuses it; a handling the user chose stays.
   */
  static void passThrough(Connector connector) {
    if (connector.getEncodedSolidusHandlingInternal() == EncodedSolidusHandling.REJECT) {
      connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
    }
  }
}
