package dev.matview.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/** The host name by which other instances reach this one. */
final class AdvertisedHost {

  static final String PROPERTY = "matview.advertised-host";

  /** A host name, an IPv4 address or an IPv6 address in brackets, without scheme or port. */
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+]");

  private AdvertisedHost() {}

  /** {@code configured} when it names a host, else this host's name, else {@code localhost}. */
  static String resolve(@Nullable String configured) {
    if (StringUtils.hasText(configured)) {
      if (!HOST.matcher(configured).matches()) {
        throw new InvalidMatviewPropertyException(
            PROPERTY,
            configured,
            "it is no host name or address: the other instances reach this one at"
                + " http://<advertised-host>:<server port>",
            "Set "
                + PROPERTY
                + " to the host alone, without scheme, port or path, for example"
                + " orders-1.internal or 10.0.0.5");
      }
      return configured;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException ex) {
      return "localhost";
    }
  }
}
