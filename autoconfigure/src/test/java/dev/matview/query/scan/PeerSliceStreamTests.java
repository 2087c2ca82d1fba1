package dev.matview.query.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.matview.peer.PeerSecret;
import dev.matview.peer.PeerTrust;
import dev.matview.peer.http.PeerAsyncHttpClient;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A partition's slices written as {@link SliceFrames} and read back by {@link PeerSliceStream} over
 * the peers' client and a real HTTP connection: every slice comes back whole with where it ended;
 * the connection is read only while a slice is waited for; and a stream that stops before the
 * partition's last slice, cannot be read, sends nothing for its timeout while a slice is waited
 * for, is held back for longer than that, or cannot be held back at all ends with the slices read
 * whole before it.
 */
class PeerSliceStreamTests {

  private static final String VIEW = "notes";

  private final PeerSlices slices =
      new PeerSlices(
          new CursorCodec(PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial()))),
          JsonMapper.builder().build(),
          null);

  private final PeerAsyncHttpClient client =
      new PeerAsyncHttpClient(null, Duration.ofSeconds(5), 4, 4);

  private HttpServer server;

  private volatile byte[] body = new byte[0];

  private volatile int status = 200;

  /** Whether the body is sent in chunks rather than with its length. */
  private volatile boolean chunked;

  /** The length the answer names, when more than the body's. */
  private volatile int declaredLength;

  private volatile Future<Void> exchange;

  private volatile CountDownLatch endBody = new CountDownLatch(0);

  @BeforeEach
  void startServer() throws IOException {
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    this.server.createContext(
        "/slices",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", SliceFrames.TYPE);
          exchange.sendResponseHeaders(
              this.status, this.chunked ? 0 : Math.max(this.declaredLength, this.body.length));
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(this.body);
            out.flush();
            this.endBody.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
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
  void readsEverySliceBackWholeWithWhereItEnded() throws Exception {
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
  void endsWithTheWholeSlicesReadWhenTheStreamIsCutShortInAFrame() throws Exception {
    byte[] whole = frames(3, 250);
    int secondFrame = frameEnd(whole, 0);
    this.body =
        Arrays.copyOf(whole, secondFrame + (frameEnd(whole, secondFrame) - secondFrame) / 2);
    List<Slice<ItemLines>> read = readAll();
    assertThat(read).hasSize(1);
    assertThat(read.get(0).exhausted()).isFalse();
  }

  @Test
  void endsWithTheWholeSlicesReadWhenTheStreamStopsBeforeThePartitionsLastSlice() throws Exception {
    byte[] whole = frames(3, 250);
    this.body = Arrays.copyOf(whole, frameEnd(whole, frameEnd(whole, 0)));
    List<Slice<ItemLines>> read = readAll();
    assertThat(read).hasSize(2);
    assertThat(read).noneMatch(Slice::exhausted);
  }

  @Test
  void endsAtAFrameThatDoesNotStartWithItsLength() throws Exception {
    this.body = "{\"key\":\"k\"}\n".getBytes(StandardCharsets.UTF_8);
    assertThat(readAll()).isEmpty();
  }

  @Test
  void endsAtAFrameLongerThanAStreamAllows() throws Exception {
    this.body = ((SliceFrames.MAX_FRAME_BYTES + 1) + "\n").getBytes(StandardCharsets.US_ASCII);
    assertThat(readAll()).isEmpty();
  }

  @Test
  void endsAtAFrameWhoseSliceCannotBeRead() throws Exception {
    byte[] frame = "{\"key\":\"k\",\"value\":1}\n".getBytes(StandardCharsets.UTF_8);
    this.body = concat((frame.length + "\n").getBytes(StandardCharsets.US_ASCII), frame);
    assertThat(readAll()).isEmpty();
  }

  @Test
  void dropsThePartitionsLastSliceWhenTheStreamGoesOnAfterIt() throws Exception {
    this.body = concat(frames(2, 250), "7\n".getBytes(StandardCharsets.US_ASCII));
    List<Slice<ItemLines>> read = readAll();
    assertThat(read).hasSize(1);
    assertThat(read.get(0).exhausted()).isFalse();
  }

  @Test
  void endsAtAnAnswerThatIsNotAStreamOfSlices() throws Exception {
    this.status = 503;
    this.body = frames(2, 250);
    assertThat(readAll()).isEmpty();
  }

  @Test
  void endsWhenNoByteCameWithinTheTimeoutWhileASliceIsWaitedFor() throws Exception {
    byte[] whole = frames(3, 250);
    this.body = Arrays.copyOf(whole, frameEnd(whole, 0) + 10);
    this.declaredLength = whole.length;
    this.endBody = new CountDownLatch(1);
    try {
      List<Slice<ItemLines>> read = readAll(Duration.ofMillis(300));
      assertThat(read).hasSize(1);
      assertThat(read.get(0).exhausted()).isFalse();
    } finally {
      this.endBody.countDown();
    }
  }

  @Test
  void readsOnOnlyWhileASliceIsWaitedFor() throws Exception {
    byte[] whole = frames(4, 10);
    int twoFrames = frameEnd(whole, frameEnd(whole, 0));
    PeerSliceStream stream = new PeerSliceStream(this.slices, VIEW);
    AtomicInteger readOn = new AtomicInteger();
    stream.head(200, SliceFrames.TYPE);
    CompletableFuture<Slice<ItemLines>> first = stream.next();
    assertThat(first).isNotDone();
    stream.data(ByteBuffer.wrap(whole, 0, 5), readOn::incrementAndGet);
    assertThat(readOn).as("read on for the rest of the slice waited for").hasValue(1);
    stream.data(ByteBuffer.wrap(whole, 5, twoFrames - 5), readOn::incrementAndGet);
    assertThat(first).isCompleted();
    assertThat(readOn).as("held while two slices came and none is waited for").hasValue(1);
    assertThat(stream.next()).as("the second slice, there already").isCompleted();
    assertThat(readOn).hasValue(1);
    CompletableFuture<Slice<ItemLines>> third = stream.next();
    assertThat(third).isNotDone();
    assertThat(readOn).as("read on once the scan waits again").hasValue(2);
    stream.data(
        ByteBuffer.wrap(whole, twoFrames, whole.length - twoFrames), readOn::incrementAndGet);
    assertThat(third.get().exhausted()).isFalse();
    CompletableFuture<Slice<ItemLines>> last = stream.next();
    assertThat(last).as("the last slice waits for the stream's end").isNotDone();
    assertThat(readOn).hasValue(3);
    stream.ended();
    assertThat(last.get().exhausted()).isTrue();
    assertThat(stream.next().get()).isNull();
  }

  @Test
  void endsAStreamHeldBackLongerThanItsTimeoutWithTheWholeSlicesItRead() throws Exception {
    this.body = frames(40, 2_000);
    assertThat(readHoldingBackAfterTheFirstSlice(Duration.ofMillis(300)))
        .hasSizeBetween(1, 39)
        .noneMatch(Slice::exhausted);
  }

  @Test
  void stopsAStreamThatIsNotHeldBackAndEndsWithTheWholeSlicesItRead() throws Exception {
    this.chunked = true;
    this.body = frames(40, 2_000);
    assertThat(readHoldingBackAfterTheFirstSlice(Duration.ofSeconds(5)))
        .hasSizeBetween(2, 39)
        .noneMatch(Slice::exhausted);
  }

  @Test
  void closingEndsTheSliceWaitedForAndTheExchange() throws Exception {
    byte[] whole = frames(2, 250);
    this.body = Arrays.copyOf(whole, 5);
    this.declaredLength = whole.length;
    this.endBody = new CountDownLatch(1);
    try {
      PeerSliceStream stream = open(Duration.ofSeconds(30));
      CompletableFuture<Slice<ItemLines>> waited = stream.next();
      stream.close();
      assertThat(waited.get(30, TimeUnit.SECONDS)).isNull();
    } finally {
      this.endBody.countDown();
    }
  }

  /**
   * The slices of a stream that waits at most {@code timeout} for each, read once its exchange has
   * ended after the first slice was taken and no other was waited for.
   */
  private List<Slice<ItemLines>> readHoldingBackAfterTheFirstSlice(Duration timeout)
      throws Exception {
    List<Slice<ItemLines>> read = new ArrayList<>();
    try (PeerSliceStream stream = open(timeout)) {
      read.add(stream.next().get(30, TimeUnit.SECONDS));
      Future<Void> exchange = this.exchange;
      await("the exchange ended while no slice was waited for")
          .atMost(Duration.ofSeconds(30))
          .until(exchange::isDone);
      Slice<ItemLines> slice;
      while ((slice = stream.next().get(30, TimeUnit.SECONDS)) != null) {
        read.add(slice);
      }
    }
    return read;
  }

  private List<Slice<ItemLines>> readAll() throws Exception {
    return readAll(Duration.ofSeconds(5));
  }

  private List<Slice<ItemLines>> readAll(Duration timeout) throws Exception {
    List<Slice<ItemLines>> read = new ArrayList<>();
    try (PeerSliceStream stream = open(timeout)) {
      Slice<ItemLines> slice;
      while ((slice = stream.next().get(30, TimeUnit.SECONDS)) != null) {
        read.add(slice);
      }
    }
    return read;
  }

  private PeerSliceStream open(Duration timeout) {
    PeerSliceStream stream = new PeerSliceStream(this.slices, VIEW);
    this.exchange =
        this.client.stream(
            "127.0.0.1", this.server.getAddress().getPort(), "/slices", Map.of(), timeout, stream);
    stream.exchange(this.exchange);
    return stream;
  }

  /** {@code count} slices of {@code size} keys each as one instance streams them. */
  private byte[] frames(int count, int size) {
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
    SliceFrames<KeyItem> frames =
        new SliceFrames<>(
            all.get(0),
            after -> new Routed.Local<>(all.get(indexAfter(all, after))),
            slice -> this.slices.linesBody(VIEW, slice));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (SliceFrames.Frame frame = frames.next(); frame != null; frame = frames.next()) {
      out.writeBytes(frame.length());
      out.writeBytes(frame.body());
    }
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
