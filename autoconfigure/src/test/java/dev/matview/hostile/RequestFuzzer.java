package dev.matview.hostile;

import static dev.matview.hostile.HostileCluster.KEYS;
import static dev.matview.hostile.HostileCluster.PER_ITEM;
import static dev.matview.hostile.HostileCluster.PER_MINUTE;
import static dev.matview.hostile.HostileCluster.PER_QUANTITY;
import static dev.matview.processes.http.HttpProbe.encode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * Generates requests over every lookup endpoint from one seed: random and edge-case views, keys,
 * instants, limits, cursors, bodies, headers and methods, written raw or percent-encoded. Some
 * requests ask for data the test wrote and say what the answer must be.
 */
final class RequestFuzzer {

  private static final List<String> VIEWS =
      List.of(
          PER_ITEM,
          PER_QUANTITY,
          PER_MINUTE,
          "nope",
          "per-item;x=1",
          "vïew",
          "%00",
          "v".repeat(300));

  private static final List<String> EDGE_KEYS =
      List.of(
          "",
          " ",
          "%",
          "%%",
          "%zz",
          "%2F",
          "%00",
          ";",
          ";a=b",
          "/",
          "a/b",
          "+",
          "++a",
          ".",
          "..",
          "\u0001",
          "\u007f",
          "a\u0000b",
          "ünïcödé",
          "日本語",
          "😀",
          "{\"shop\":1}",
          "-1",
          "9223372036854775808",
          "0x10",
          "k".repeat(1024),
          "k".repeat(1025),
          "ü".repeat(600),
          "k".repeat(4000));

  private static final List<String> INSTANTS =
      List.of(
          "2026-03-01T10:00:00Z",
          "1970-01-01T00:00:00Z",
          "1969-12-31T23:59:59Z",
          "+999999999-12-31T23:59:59Z",
          "%2B999999999-12-31T23:59:59Z",
          "%2B292278994-08-17T07:12:55.807Z",
          "%2B292278994-08-17T07:12:55.808Z",
          "-1000000000-01-01T00:00:00Z",
          "9999-12-31T23:59:59Z",
          "yesterday",
          "",
          "2026-13-45T99:99:99Z",
          "99999999999999999999",
          "2026-03-01",
          "2026-03-01T10:00:00+01:00");

  private static final List<String> LIMITS =
      List.of("-1", "0", "1", "2", "100", "1000", "1001", "2147483648", "abc", "", "1e3", "%205");

  private static final List<String> ACCEPTS =
      List.of(
          "application/json",
          "*/*",
          "text/csv",
          "application/yaml",
          "text/html",
          "application/problem+json",
          "application/json;q=0",
          ";;;",
          "application/*",
          "image/png, */*;q=0.1");

  private static final List<String> CONTENT_TYPES =
      List.of(
          "application/json",
          "application/json; charset=UTF-8",
          "*/*",
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "nonsense",
          "application/json; charset=nonsense");

  private static final List<String> METHODS =
      List.of("PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "FOO", "POST");

  private final Random random;

  private final List<String> cursors;

  private final PeerSignatures signatures;

  RequestFuzzer(long seed, List<String> cursors, PeerSignatures signatures) {
    this.random = new Random(seed);
    this.cursors = cursors;
    this.signatures = signatures;
  }

  /**
   * The next request; one in four that a peer could send (a plain target, GET or POST) carries a
   * signature made by the instances' own signer: valid, or forged in one of the ways of {@link
   * PeerSignatures.Kind}.
   */
  FuzzRequest next() {
    FuzzRequest request = unsigned();
    if (this.random.nextInt(4) == 0 && PeerSignatures.signable(request)) {
      return this.signatures.sign(
          request, pick(List.of(PeerSignatures.Kind.values())), this.random);
    }
    return request;
  }

  private FuzzRequest unsigned() {
    int kind = this.random.nextInt(100);
    if (kind < 12) {
      return found();
    }
    if (kind < 18) {
      return absent();
    }
    if (kind < 22) {
      return foundInBatch();
    }
    if (kind < 25) {
      return fieldNamedTwice();
    }
    FuzzRequest request =
        switch (this.random.nextInt(13)) {
          case 0 -> get("/views" + (this.random.nextBoolean() ? "" : "/"));
          case 1 -> get(keyPath());
          case 2 -> get(keyPath() + "/windows" + query("from", "to"));
          case 3 -> get(viewPath() + "/keys" + query("from", "to", "limit", "cursor"));
          case 4 -> get(viewPath() + "/windows" + query("from", "to", "limit", "cursor"));
          case 5 -> batch();
          case 6 ->
              get(
                  viewPath()
                      + "/partitions/"
                      + pick(List.of("0", "1", "3", "4", "-1", "99999999999", "abc", ""))
                      + pick(List.of("/keys", "/windows"))
                      + query("from", "to", "after", "limit", "form"));
          case 7 ->
              get(
                  viewPath()
                      + pick(List.of("/x", "/keys/a/b/c", "/batch", "/keys/a/windows/b", "")));
          case 8 ->
              get(
                  pick(
                      List.of(
                          "/matview",
                          "/matview/",
                          "/matview/dashboard.js?" + key(),
                          "/matview/dashboard.css/..",
                          "/matview/%zz",
                          "/matview/" + writeSegment(key()))));
          case 9 -> changesAfterAnIdNoStreamHolds();
          case 10 -> streamedScan();
          case 11 -> get(viewPath() + "/key" + pick(List.of("", "/windows")) + keyQuery());
          default -> get(pick(List.of("/views?x=%zz", "/views/%", "/views/" + key() + "/keys")));
        };
    return withOddities(request);
  }

  /**
   * A scan asked as one streamed response, resumed at a cursor or after a key and window start, any
   * of them damaged, and with a limit it does not take.
   */
  private FuzzRequest streamedScan() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(
        "Accept",
        pick(
            List.of(
                "application/x-ndjson",
                "application/x-ndjson, application/json",
                "application/x-ndjson;q=0.5, */*;q=0.1",
                "application/x-ndjson;;")));
    return new FuzzRequest(
        "GET",
        viewPath()
            + pick(List.of("/keys", "/windows"))
            + query("from", "to", "cursor", "afterKey", "afterStart", "limit"),
        headers,
        new byte[0],
        false,
        null,
        null);
  }

  /**
   * A key's change stream asked to go on after an id that no stream wrote (a cursor, a forged or
   * oversized token, text): refused before any stream opens, so that the answer ends.
   */
  private FuzzRequest changesAfterAnIdNoStreamHolds() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", "text/event-stream");
    headers.put(
        "Last-Event-ID",
        pick(List.of(cursor() + ".0", "A".repeat(this.random.nextInt(6_000) + 1) + ".7", "x.y.z")));
    String target =
        this.random.nextBoolean()
            ? keyPath() + "/changes"
            : viewPath() + "/key/changes" + keyQuery();
    return new FuzzRequest("GET", target, headers, new byte[0], false, null, null);
  }

  private FuzzRequest found() {
    if (this.random.nextBoolean()) {
      int quantity = this.random.nextInt(KEYS.size()) + 1;
      return new FuzzRequest(
          "GET",
          "/views/" + PER_QUANTITY + "/keys/" + quantity,
          acceptingJson(),
          new byte[0],
          false,
          (long) quantity,
          Long.toString(quantity));
    }
    String key = pick(KEYS);
    boolean inPath = HostileCluster.PATH_KEYS.contains(key) && this.random.nextBoolean();
    return new FuzzRequest(
        "GET",
        "/views/" + PER_ITEM + (inPath ? "/keys/" : "/key?key=") + encode(key),
        acceptingJson(),
        new byte[0],
        false,
        HostileCluster.countOf(key),
        key);
  }

  private FuzzRequest absent() {
    String key = "absent-" + Long.toHexString(this.random.nextLong());
    return new FuzzRequest(
        "GET", "/views/" + PER_ITEM + "/keys/" + key, acceptingJson(), new byte[0], false, 0L, key);
  }

  private FuzzRequest foundInBatch() {
    String key = pick(KEYS);
    Map<String, String> headers = acceptingJson();
    headers.put("Content-Type", "application/json");
    String body = "{\"keys\": [" + json(key) + "]}";
    return new FuzzRequest(
        "POST",
        "/views/" + PER_ITEM + "/batch",
        headers,
        body.getBytes(StandardCharsets.UTF_8),
        this.random.nextBoolean(),
        HostileCluster.countOf(key),
        key);
  }

  /**
   * A batch whose body names one field twice in one object, at the top, inside a key or deep in a
   * field the batch does not read, the second time perhaps escaped: refused with 400 whatever the
   * rest of the body holds, since which of the two was meant cannot be told.
   */
  private FuzzRequest fieldNamedTwice() {
    String key = json(pick(KEYS));
    String name = pick(List.of("id", "keys", "a", "\\u0000", "x".repeat(200)));
    String twice = "{\"" + name + "\": 1, \"" + escapedAgain(name) + "\": 2}";
    String body =
        switch (this.random.nextInt(4)) {
          case 0 -> "{\"keys\": [" + key + "], \"" + escapedAgain("keys") + "\": [" + key + "]}";
          case 1 -> "{\"keys\": [" + key + ", " + twice + "]}";
          case 2 -> {
            int depth = this.random.nextInt(50);
            yield "{\"keys\": ["
                + key
                + "], \"extra\": "
                + "[{\"in\": ".repeat(depth)
                + twice
                + "}]".repeat(depth)
                + "}";
          }
          default -> "{" + "\"keys\": [" + key + "], " + twice.substring(1);
        };
    Map<String, String> headers = acceptingJson();
    headers.put("Content-Type", "application/json");
    return new FuzzRequest(
        "POST",
        "/views/" + PER_ITEM + "/batch",
        headers,
        body.getBytes(StandardCharsets.UTF_8),
        this.random.nextBoolean(),
        null,
        null,
        400,
        null);
  }

  /** {@code name}, or the same name with one of its letters written as a JSON escape. */
  private String escapedAgain(String name) {
    int at = this.random.nextInt(name.length());
    char c = name.charAt(at);
    if (this.random.nextBoolean() || name.indexOf('\\') >= 0) {
      return name;
    }
    return name.substring(0, at) + String.format("\\u%04x", (int) c) + name.substring(at + 1);
  }

  private Map<String, String> acceptingJson() {
    Map<String, String> headers = new LinkedHashMap<>();
    String accept = pick(List.of("", "application/json", "*/*", "application/*"));
    if (!accept.isEmpty()) {
      headers.put("Accept", accept);
    }
    return headers;
  }

  private FuzzRequest get(String target) {
    return new FuzzRequest("GET", target, new LinkedHashMap<>(), new byte[0], false, null, null);
  }

  private FuzzRequest batch() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(
        "Content-Type", this.random.nextInt(4) == 0 ? pick(CONTENT_TYPES) : "application/json");
    return new FuzzRequest(
        "POST",
        viewPath() + pick(List.of("/batch", "/forwarded-keys")) + query("from", "to"),
        headers,
        body(),
        this.random.nextInt(3) == 0,
        null,
        null);
  }

  private byte[] body() {
    String body =
        switch (this.random.nextInt(16)) {
          case 0 -> "{";
          case 1 -> "[]";
          case 2 -> "null";
          case 3 -> "{\"keys\": null}";
          case 4 -> "{\"keys\": {}}";
          case 5 -> "{\"keys\": [null, 1, true, {}, []]}";
          case 6 -> "{\"keys\": " + "[".repeat(5000) + "]".repeat(5000) + "}";
          case 7 -> "[".repeat(100_000);
          case 8 -> "{\"keys\": \"" + "k".repeat(this.random.nextInt(3_000_000)) + "\"}";
          case 9 ->
              "{\"keys\": ["
                  + IntStream.range(0, this.random.nextInt(1500))
                      .mapToObj(n -> json(key()))
                      .collect(Collectors.joining(","))
                  + "]}";
          case 10 -> "{\"keys\": [\"a\\u0000b\", \"\\ud800\", \"" + "x".repeat(2000) + "\"]}";
          case 11 -> "{\"keys\": [1e999999999, -0, 12345678901234567890]}";
          case 12 -> "";
          case 13 ->
              new String(randomBytes(this.random.nextInt(2000)), StandardCharsets.ISO_8859_1);
          case 14 ->
              "{\"keys\": [\"alpha\"], \"keys\": [\"beta\"], \"other\": " + "9".repeat(5000) + "}";
          default ->
              "{\"keys\": ["
                  + KEYS.stream().map(RequestFuzzer::json).collect(Collectors.joining(","))
                  + "]}";
        };
    return body.getBytes(StandardCharsets.UTF_8);
  }

  private FuzzRequest withOddities(FuzzRequest request) {
    Map<String, String> headers = new LinkedHashMap<>(request.headers());
    if (this.random.nextInt(4) == 0) {
      headers.put("Accept", pick(ACCEPTS));
    }
    if (this.random.nextInt(6) == 0) {
      headers.put("Matview-Forwarded", pick(List.of("1", "relay", "0", "yes", "")));
    }
    if (this.random.nextInt(8) == 0) {
      headers.put(
          "Matview-Signature",
          pick(
              List.of(
                  "",
                  "v1",
                  "1:" + Long.toHexString(this.random.nextLong()),
                  System.currentTimeMillis() + ":" + "A".repeat(43),
                  "-1:%%:" + "x".repeat(this.random.nextInt(4_000)),
                  Long.MAX_VALUE + ":" + Long.MIN_VALUE)));
    }
    if (this.random.nextInt(10) == 0) {
      headers.put("Authorization", "Bearer " + Long.toHexString(this.random.nextLong()));
    }
    if (this.random.nextInt(10) == 0) {
      headers.put(
          "Matview-Position",
          pick(List.of(cursor(), "", "!!!", "A".repeat(this.random.nextInt(6_000)))));
    }
    if (this.random.nextInt(20) == 0) {
      // Large headers within Tomcat's 8 KB limit; one over it is a fixed case in
      // HostileRequestsIntegrationTests, since a server that refuses a request mid-write may reset
      // the connection before its answer is read.
      headers.put("X-Filler", "x".repeat(this.random.nextInt(6_000)));
    }
    String method = request.method();
    byte[] body = request.body();
    if (this.random.nextInt(8) == 0) {
      method = pick(METHODS);
      if (this.random.nextBoolean() && body.length == 0) {
        body = body();
        headers.putIfAbsent("Content-Type", pick(CONTENT_TYPES));
      }
    }
    return new FuzzRequest(
        method, request.target(), headers, body, request.chunked() && body.length > 0, null, null);
  }

  private String viewPath() {
    return "/views/" + writeSegment(pick(VIEWS));
  }

  private String keyPath() {
    return viewPath() + "/keys/" + writeSegment(key());
  }

  private String key() {
    return switch (this.random.nextInt(4)) {
      case 0 -> pick(KEYS);
      case 1 -> pick(EDGE_KEYS);
      case 2 -> randomText();
      default -> Long.toString(this.random.nextLong() % 20);
    };
  }

  private String randomText() {
    return this.random
        .ints(this.random.nextInt(30), 1, 0x3000)
        .filter(c -> c != '\r' && c != '\n' && !Character.isSurrogate((char) c))
        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
        .toString();
  }

  /** A segment percent-encoded, written raw, or half and half. */
  private String writeSegment(String segment) {
    return switch (this.random.nextInt(3)) {
      case 0 -> encode(segment);
      case 1 -> raw(segment);
      default ->
          segment
              .codePoints()
              .mapToObj(
                  c -> {
                    String one = new String(Character.toChars(c));
                    return this.random.nextBoolean() ? encode(one) : raw(one);
                  })
              .collect(Collectors.joining());
    };
  }

  /** The text as is, but never a line break or a space, which would end the request line. */
  private static String raw(String text) {
    return text.replace("\r", "%0D").replace("\n", "%0A").replace(" ", "%20");
  }

  /**
   * The query of a read of one key with the key in the query: the key once (written as a segment
   * is), twice, empty or missing, perhaps beside a time range.
   */
  private String keyQuery() {
    String key =
        switch (this.random.nextInt(6)) {
          case 0 -> "";
          case 1 -> "key=";
          case 2 -> "key=" + writeSegment(key()) + "&key=" + writeSegment(key());
          case 3 -> "KEY=" + writeSegment(key());
          default -> "key=" + writeSegment(key());
        };
    String range = query("from", "to");
    return (key.isEmpty() ? range : "?" + key + (range.isEmpty() ? "" : "&" + range.substring(1)));
  }

  private String query(String... names) {
    StringBuilder query = new StringBuilder();
    for (String name : names) {
      if (this.random.nextInt(3) == 0) {
        continue;
      }
      String value =
          switch (name) {
            case "from", "to" -> this.random.nextBoolean() ? pick(INSTANTS) : writeSegment(key());
            case "limit" -> pick(LIMITS);
            case "afterKey" -> writeSegment(key());
            case "afterStart" -> pick(INSTANTS);
            case "form" -> pick(List.of("lines", "json", "", "LINES", "x".repeat(3_000)));
            default -> cursor();
          };
      query.append(query.isEmpty() ? "?" : "&").append(name).append('=').append(value);
    }
    if (this.random.nextInt(10) == 0) {
      query
          .append(query.isEmpty() ? "?" : "&")
          .append(
              pick(
                  List.of(
                      "allowStale=maybe",
                      "maxLag=-1",
                      "maxLag=abc",
                      "maxLag=99999999999999999999",
                      "allowStale=true&allowStale=false",
                      "allowStale=true&maxLag=0",
                      "position=" + cursor(),
                      "position=" + "A".repeat(this.random.nextInt(6_000)),
                      "after=" + HostileCluster.TOPIC + ":0:0",
                      "after=" + HostileCluster.TOPIC + ":3:99999999999",
                      "after=" + HostileCluster.TOPIC + ":-1:0",
                      "after=" + HostileCluster.TOPIC + ":0:-5",
                      "after=" + HostileCluster.TOPIC + ":0:99999999999999999999",
                      "after=no-such-topic:0:0",
                      "after=" + HostileCluster.TOPIC + ":0",
                      "after=:::",
                      "from",
                      "=",
                      "&&")));
    }
    return query.toString();
  }

  private String cursor() {
    String real = this.cursors.isEmpty() ? "AAAA" : pick(this.cursors);
    return switch (this.random.nextInt(6)) {
      case 0 -> real;
      case 1 -> real.substring(0, this.random.nextInt(real.length() + 1));
      case 2 -> flip(real);
      case 3 ->
          Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(randomBytes(this.random.nextInt(200)));
      case 4 -> forgedLengths();
      default -> pick(List.of("", "!!!", "%zz", "A".repeat(3000), "====", "AAAA%2B%2F"));
    };
  }

  /** A cursor that claims lengths far beyond what it holds. */
  private String forgedLengths() {
    byte[] bytes = randomBytes(40);
    for (int i = 0; i < bytes.length; i += 4) {
      bytes[i] = (byte) 0x7f;
      bytes[i + 1] = (byte) 0xff;
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private String flip(String cursor) {
    if (cursor.isEmpty()) {
      return "A";
    }
    char[] chars = cursor.toCharArray();
    int at = this.random.nextInt(chars.length);
    chars[at] = chars[at] == 'A' ? 'B' : 'A';
    return new String(chars);
  }

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    this.random.nextBytes(bytes);
    return bytes;
  }

  private <T> T pick(List<T> values) {
    return values.get(this.random.nextInt(values.size()));
  }

  private static String json(String text) {
    StringBuilder json = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    return json.append('"').toString();
  }

  /**
   * One generated request. When {@code expectedCount} is set, the request asks for {@code
   * expectedKey} of data the test wrote: a count above 0 must be answered 200 with that count, 0
   * with 404. When {@code expectedStatus} is set, the request must be answered with that status.
   */
  record FuzzRequest(
      String method,
      String target,
      Map<String, String> headers,
      byte[] body,
      boolean chunked,
      @Nullable Long expectedCount,
      @Nullable String expectedKey,
      @Nullable Integer expectedStatus,
      PeerSignatures.@Nullable Kind signature) {

    FuzzRequest(
        String method,
        String target,
        Map<String, String> headers,
        byte[] body,
        boolean chunked,
        @Nullable Long expectedCount,
        @Nullable String expectedKey) {
      this(method, target, headers, body, chunked, expectedCount, expectedKey, null, null);
    }

    /** Whether the request carries a signature that an instance must refuse with a 403. */
    boolean forged() {
      return signature != null && signature != PeerSignatures.Kind.VALID;
    }

    String describe() {
      return method
          + " "
          + (target.length() > 200 ? target.substring(0, 200) + "..." : target)
          + " "
          + headers.entrySet().stream()
              .map(
                  header ->
                      header.getKey()
                          + ": "
                          + (header.getValue().length() > 60
                              ? header.getValue().substring(0, 60) + "..."
                              : header.getValue()))
              .toList()
          + " body "
          + body.length
          + " bytes"
          + (chunked ? " chunked" : "")
          + (signature != null ? " signature " + signature : "");
    }
  }
}
