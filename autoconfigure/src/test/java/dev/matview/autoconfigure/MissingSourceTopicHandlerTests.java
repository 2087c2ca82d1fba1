package dev.matview.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

/** A thread that saw a source topic missing is replaced; any other failure stops the client. */
class MissingSourceTopicHandlerTests {

  private final MissingSourceTopicHandler handler = new MissingSourceTopicHandler();

  @Test
  void replacesAThreadThatSawASourceTopicMissing() {
    StreamsException failure =
        new StreamsException(new MissingSourceTopicException("Missing source topics. [sales]"));
    assertThat(this.handler.handle(failure))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
  }

  @Test
  void shutsTheClientDownOnAnyOtherFailure() {
    assertThat(this.handler.handle(new StreamsException("disk full")))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
  }
}
