package dev.matview.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * Kafka {@code group.instance.id} values: a given one checked, a default one derived from the
 * advertised host and the absolute state dir, which two live instances never share.
 */
final class InstanceId {

  /** The longest id accepted, leaving room for the thread suffix Kafka Streams appends. */
  static final int MAX_LENGTH = 200;

  private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");

  private static final Pattern ILLEGAL_RUN = Pattern.compile("[^a-zA-Z0-9._-]+");

  private static final Pattern EDGE_DASHES = Pattern.compile("^-+|-+$");

  private InstanceId() {}

  /** Whether Kafka accepts {@code id} as a group instance id. */
  static boolean isLegal(String id) {
    return id.length() <= MAX_LENGTH && LEGAL.matcher(id).matches();
  }

  /** The id of the instance on {@code host} whose state lives in {@code stateDir}. */
  static String derive(String host, String stateDir) {
    String path = Path.of(stateDir).toAbsolutePath().normalize().toString();
    String id = sanitize(host) + "-" + sanitize(path);
    if (id.length() <= MAX_LENGTH) {
      return id;
    }
    CRC32 crc = new CRC32();
    crc.update(path.getBytes(StandardCharsets.UTF_8));
    String hash = HexFormat.of().toHexDigits((int) crc.getValue());
    String hostPart = sanitize(host);
    int room = MAX_LENGTH - hash.length() - 1;
    return (hostPart.length() > room ? hostPart.substring(0, room) : hostPart) + "-" + hash;
  }

  private static String sanitize(String text) {
    return EDGE_DASHES.matcher(ILLEGAL_RUN.matcher(text).replaceAll("-")).replaceAll("");
  }
}
