package dev.matview.benchmarks.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 below the operating systems' ephemeral ranges, so that no outgoing
 * connection takes a port that a process about to start means to listen on.
 */
public final class LocalPorts {

  private static final int LOWEST = 20_000;

  private static final int HIGHEST = 32_000;

  private LocalPorts() {}

  /** A port on the loopback address that no one listens on now. */
  public static int free() {
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
      try (ServerSocket socket = new ServerSocket(port, 0, InetAddress.getLoopbackAddress())) {
        return socket.getLocalPort();
      } catch (IOException ex) {
        continue;
      }
    }
    throw new IllegalStateException(
        "No free port on 127.0.0.1 between " + LOWEST + " and " + HIGHEST + " after 200 tries");
  }
}
