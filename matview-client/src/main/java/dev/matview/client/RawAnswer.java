package dev.matview.client;

import org.springframework.http.HttpHeaders;

/**
 * An answer as it came: status, headers and body, read before the status decides what it means.
 *
 * @param status the HTTP status
 * @param headers the answer's headers
 * @param body the answer's body, empty when it had none
 */
record RawAnswer(int status, HttpHeaders headers, byte[] body) {

  boolean successful() {
    return this.status >= 200 && this.status < 300;
  }

  AnswerMetadata metadata() {
    return AnswerMetadata.of(this.headers);
  }
}
