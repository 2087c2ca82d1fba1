package dev.matview.benchmarks.scan;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Reads a streamed scan as a client that only needs its lines would: counts the item lines as they
 * arrive, without parsing them, and checks that the last line says the scan reached its end.
 */
final class StreamedScanReader {

  private static final String COMPLETE = "{\"nextCursor\":null}";

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /**
   * How many items the streamed scan at {@code uri} holds.
   *
   * @throws IllegalStateException when it does not answer 200 or ends without reaching its end
   */
  long items(URI uri) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .header("Accept", "application/x-ndjson")
            .timeout(Duration.ofMinutes(5))
            .build();
    HttpResponse<InputStream> response =
        this.client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = response.body()) {
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            uri
                + " answered "
                + response.statusCode()
                + ": "
                + new String(body.readAllBytes(), StandardCharsets.UTF_8));
      }
      return itemLines(uri, body);
    }
  }

  private static long itemLines(URI uri, InputStream body) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    byte[] line = new byte[COMPLETE.length() + 1];
    byte[] lastLine = new byte[line.length];
    int length = 0;
    int lastLength = 0;
    long lines = 0;
    int read;
    while ((read = body.read(buffer)) > 0) {
      for (int index = 0; index < read; index++) {
        byte next = buffer[index];
        if (next == '\n') {
          lines++;
          System.arraycopy(line, 0, lastLine, 0, Math.min(length, line.length));
          lastLength = length;
          length = 0;
        } else {
          if (length < line.length) {
            line[length] = next;
          }
          length++;
        }
      }
    }
    String end =
        new String(lastLine, 0, Math.min(lastLength, lastLine.length), StandardCharsets.UTF_8);
    if (length != 0 || lines == 0 || !end.equals(COMPLETE)) {
      throw new IllegalStateException(uri + " ended without reaching the scan's end: " + end);
    }
    return lines - 1;
  }
}
