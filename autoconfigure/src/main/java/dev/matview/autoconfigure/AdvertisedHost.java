package dev.matview.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/** The host name by which other instances reach this one. */
final class AdvertisedHost {

  private AdvertisedHost() {}

  /** {@code configured} when it has text, else this host's name, else {@code localhost}. */
  static String resolve(@Nullable String configured) {
    if (StringUtils.hasText(configured)) {
      return configured;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException ex) {
      return "localhost";
    }
  }
}
