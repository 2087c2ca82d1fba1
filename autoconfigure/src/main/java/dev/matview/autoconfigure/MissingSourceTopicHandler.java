package dev.matview.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * Replaces a stream thread that failed on a source topic missing from its metadata, as while a new
 * topic propagates, and shuts the client down on any other error, as by default.
 */
final class MissingSourceTopicHandler implements StreamsUncaughtExceptionHandler {

  private static final Log logger = LogFactory.getLog(MissingSourceTopicHandler.class);

  @Override
  public StreamThreadExceptionResponse handle(Throwable exception) {
    if (causedByMissingSourceTopic(exception)) {
      logger.warn(
          "A source topic was missing from the metadata of a stream thread; replacing the thread."
              + " If the topic does not exist, create it: "
              + exception.getMessage());
      return StreamThreadExceptionResponse.REPLACE_THREAD;
    }
    return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  }

  private static boolean causedByMissingSourceTopic(Throwable exception) {
    for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
      if (cause instanceof MissingSourceTopicException) {
        return true;
      }
    }
    return false;
  }
}
