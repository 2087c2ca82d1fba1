package dev.matview.docs;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.HttpProbe.Answer;
import dev.matview.processes.http.StreamedAnswer;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code curl} commands of the README and the guide, and whether one reaches an endpoint: any
 * answer but a 404 of a path that names none (Matview's 404 of an unknown view or of a key without
 * a value reached its endpoint) and but a 500.
 */
final class CurlChecks {

  /** The types of Matview's 404s that reached an endpoint: it holds no such view, or no value. */
  private static final List<String> ENDPOINT_REACHED =
      List.of(
          "https://matview.dev/problems/unknown-view",
          "https://matview.dev/problems/key-not-found");

  private CurlChecks() {}

  /** Every curl command of every page's checked shell blocks. */
  static List<CurlRequest> requests() {
    List<CurlRequest> requests = new ArrayList<>();
    for (CodeBlock block : DocPages.tested("shell")) {
      for (List<String> command : ShellCommands.of(block.code())) {
        if (command.get(0).equals("curl")) {
          requests.add(CurlRequest.of(block.where(), command));
        }
      }
    }
    return requests;
  }

  /** The lines of the checked shell blocks that start with curl, counted without parsing. */
  static int curlLines() {
    return (int)
        DocPages.tested("shell").stream()
            .flatMap(block -> block.code().lines())
            .filter(line -> line.strip().startsWith("curl "))
            .count();
  }

  /** What is wrong with the answer to {@code request}, if anything. */
  static Optional<String> problem(HttpProbe http, CurlRequest request) {
    String[] headers = request.headers().toArray(String[]::new);
    int status;
    String answer;
    try {
      if (request.streamed()) {
        try (StreamedAnswer stream = http.open(request.pathAndQuery(), headers)) {
          status = stream.status();
          answer = stream.headers().toString();
        }
      } else {
        Answer whole =
            http.send(
                request.method(), request.pathAndQuery(), request.body().orElse(null), headers);
        status = whole.status();
        answer = whole.describe();
        if (status == 404 && ENDPOINT_REACHED.contains(whole.json().path("type").asString(""))) {
          return Optional.empty();
        }
      }
    } catch (UncheckedIOException ex) {
      return Optional.of(request.describe() + " got no answer: " + ex.getCause());
    }
    if (status == 404 || status >= 500 && status != 503) {
      return Optional.of(request.describe() + " reaches no endpoint: " + answer);
    }
    return Optional.empty();
  }
}
