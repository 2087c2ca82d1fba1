package dev.matview.jetty;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 request written byte for byte on a socket of its own, so that a request no client
 * library would send (an invalid target, a bad escape, a header too large) reaches the server.
 */
record RawRequest(int port) {

  /** The server's whole answer to {@code method target} with {@code headers} lines added. */
  Answer send(String method, String target, String... headers) {
    StringBuilder request =
        new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    request.append("Host: localhost\r\nConnection: close\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    request.append("\r\n");
    try (Socket socket = new Socket("127.0.0.1", this.port)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      return new Answer(all.toString(StandardCharsets.UTF_8));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** What came back: a status line, headers and a body, as text. */
  record Answer(String text) {

    int status() {
      return Integer.parseInt(this.text.substring(9, 12));
    }

    String header(String name) {
      String head = this.text.substring(0, Math.max(0, this.text.indexOf("\r\n\r\n")));
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0
            && line.substring(0, colon)
                .trim()
                .toLowerCase(Locale.ROOT)
                .equals(name.toLowerCase(Locale.ROOT))) {
          return line.substring(colon + 1).trim();
        }
      }
      return "";
    }

    String body() {
      int end = this.text.indexOf("\r\n\r\n");
      return end < 0 ? "" : this.text.substring(end + 4);
    }
  }
}
