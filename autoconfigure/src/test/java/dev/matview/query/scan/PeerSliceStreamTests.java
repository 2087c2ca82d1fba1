package dev.matview.query.scan;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.matview.peer.PeerSecret;
import dev.matview.peer.PeerTrust;
import dev.matview.peer.http.PeerHttpClient;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A partition's slices written as {@link SliceFrames} and read back by {@link PeerSliceStream} over
 * a real HTTP connection: every slice comes back whole with where it ended, and a stream that stops
 * before the partition's last slice, or cannot be read, ends with the slices read whole before it.
 */
class PeerSliceStreamTests {

  private static final String VIEW = "notes";

  private final PeerSlices slices =
      new PeerSlices(
          new CursorCodec(PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial()))),
          JsonMapper.builder().build());

  private final PeerHttpClient client = new PeerHttpClient(null, Duration.ofSeconds(5), 4, 4);

  private HttpServer server;

  private volatile byte[] body = new byte[0];

  @BeforeEach
  void startServer() throws IOException {
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    this.server.createContext(
        "/slices",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", SliceFrames.TYPE);
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(this.body);
          }
        });
    this.server.start();
  }

  @AfterEach
  void stop() {
    this.server.stop(0);
    this.client.close();
  }

  @Test
  void readsEverySliceBackWholeWithWhereItEnded() throws IOException {
    this.body = frames(3, 250);
    List<Slice<ItemLines>> read = readAll();
    assertThat(read).hasSize(3);
    for (int n = 0; n < 3; n++) {
      Slice<ItemLines> slice = read.get(n);
      ItemLines lines = slice.items().get(0);
      assertThat(lines.count()).isEqualTo(250);
      assertThat(new String(lines.bytes(), 0, lines.length(), StandardCharsets.UTF_8))
          .startsWith("{\"key\":\"" + key(n * 250) + "\"")
          .endsWith("{\"key\":\"" + key(n * 250 + 249) + "\",\"value\":" + (n * 250 + 249) + "}\n");
      assertThat(slice.last()).isNotNull();
      assertThat(new String(slice.last().key(), StandardCharsets.UTF_8))
          .isEqualTo(key(n * 250 + 249));
      assertThat(slice.exhausted()).isEqualTo(n == 2);
    }
  }

  @Test
  void endsWithTheWholeSlicesReadWhenTheStreamIsCutShortInAFrame() throws IOException {
    byte[] whole = frames(3, 250);
    int secondFrame = frameEnd(whole, 0);
    this.body =
        Arrays.copyOf(whole, secondFrame + (frameEnd(whole, secondFrame) - secondFrame) / 2);
    List<Slice<ItemLines>> read = readAll();
    assertThat(read).hasSize(1);
    assertThat(read.get(0).exhausted()).isFalse();
  }

  @Test
  void endsWithTheWholeSlicesReadWhenTheStreamStopsBeforeThePartitionsLastSlice()
      throws IOException {
    byte[] whole = frames(3, 250);
    this.body = Arrays.copyOf(whole, frameEnd(whole, frameEnd(whole, 0)));
    List<Slice<ItemLines>> read = readAll();
    assertThat(read).hasSize(2);
    assertThat(read).noneMatch(Slice::exhausted);
  }

  @Test
  void endsAtAFrameThatDoesNotStartWithItsLength() throws IOException {
    this.body = "{\"key\":\"k\"}\n".getBytes(StandardCharsets.UTF_8);
    assertThat(readAll()).isEmpty();
  }

  @Test
  void endsAtAFrameLongerThanAStreamAllows() throws IOException {
    this.body = ((SliceFrames.MAX_FRAME_BYTES + 1) + "\n").getBytes(StandardCharsets.US_ASCII);
    assertThat(readAll()).isEmpty();
  }

  @Test
  void endsAtAFrameWhoseSliceCannotBeRead() throws IOException {
    byte[] frame = "{\"key\":\"k\",\"value\":1}\n".getBytes(StandardCharsets.UTF_8);
    this.body = concat((frame.length + "\n").getBytes(StandardCharsets.US_ASCII), frame);
    assertThat(readAll()).isEmpty();
  }

  private List<Slice<ItemLines>> readAll() throws IOException {
    int port = this.server.getAddress().getPort();
    List<Slice<ItemLines>> read = new ArrayList<>();
    try (PeerSliceStream stream =
        new PeerSliceStream(
            this.client.open("127.0.0.1", port, "/slices", Map.of(), Duration.ofSeconds(5)),
            this.slices,
            VIEW)) {
      Slice<ItemLines> slice;
      while ((slice = stream.next()) != null) {
        read.add(slice);
      }
    }
    return read;
  }

  /** {@code count} slices of {@code size} keys each as one instance streams them. */
  private byte[] frames(int count, int size) throws IOException {
    List<Slice<KeyItem>> all =
        IntStream.range(0, count)
            .mapToObj(
                n ->
                    new Slice<>(
                        IntStream.range(n * size, (n + 1) * size)
                            .mapToObj(i -> new KeyItem(key(i), i))
                            .toList(),
                        position(key((n + 1) * size - 1)),
                        n == count - 1))
            .toList();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SliceFrames<>(
            all.get(0),
            after -> new Routed.Local<>(all.get(indexAfter(all, after))),
            slice -> this.slices.linesBody(VIEW, slice))
        .writeTo(out);
    return out.toByteArray();
  }

  private static int indexAfter(List<Slice<KeyItem>> all, ScanPosition after) {
    for (int n = 0; n < all.size(); n++) {
      if (Arrays.equals(all.get(n).last().key(), after.key())) {
        return n + 1;
      }
    }
    throw new AssertionError("no slice ends at " + new String(after.key(), StandardCharsets.UTF_8));
  }

  /** Where the frame that starts at {@code start} ends. */
  private static int frameEnd(byte[] frames, int start) {
    int newline = start;
    while (frames[newline] != '\n') {
      newline++;
    }
    int length =
        Integer.parseInt(new String(frames, start, newline - start, StandardCharsets.US_ASCII));
    return newline + 1 + length;
  }

  private static @Nullable ScanPosition position(String key) {
    return new ScanPosition(key.getBytes(StandardCharsets.UTF_8), 0);
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  private static String key(int n) {
    return String.format("key-%05d", n);
  }
}
