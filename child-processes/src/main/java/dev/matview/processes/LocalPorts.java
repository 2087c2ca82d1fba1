package dev.matview.processes;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 for processes that must get the same port back after a restart.
 *
 * <p>The ports come from below the operating systems' ephemeral ranges (Linux 32768 and up, macOS
 * and Windows 49152 and up): a port handed out by {@code new ServerSocket(0)} may be taken as the
 * local port of some outgoing connection while its process is down, and the restarted process could
 * not listen on it again.
 */
public final class LocalPorts {

  private static final int LOWEST = 20_000;

  private static final int HIGHEST = 32_000;

  private LocalPorts() {}

  /** A port on the loopback address, outside the ephemeral range, that no one listens on now. */
  public static int free() {
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
      try (ServerSocket socket = new ServerSocket(port, 0, InetAddress.getLoopbackAddress())) {
        return socket.getLocalPort();
      } catch (IOException ex) {
        // Taken: try another one.
      }
    }
    throw new IllegalStateException(
        "No free port on 127.0.0.1 between " + LOWEST + " and " + HIGHEST + " after 200 tries");
  }
}
