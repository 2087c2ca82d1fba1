package dev.matview.deadletter;

import dev.matview.topology.RecordDecodingException;
import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.jspecify.annotations.Nullable;

/**
 * Sends a record that a processor failed on to the dead-letter topic, as it was read from its
 * topic, and goes on; fails only when the dead letter cannot be written.
 */
public final class DeadLetterProcessingExceptionHandler implements ProcessingExceptionHandler {

  private @Nullable DeadLetters deadLetters;

  @Override
  public void configure(Map<String, ?> configs) {
    this.deadLetters = DeadLetters.from(configs);
  }

  @Override
  public ProcessingHandlerResponse handle(
      ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
    DeadLetters deadLetters = DeadLetters.configured(this.deadLetters);
    ViewLocator.Step step = deadLetters.locator().processor(context.processorNodeId());
    DeadLetter letter =
        DeadLetter.ofSource(view(step, exception), reason(step, exception), context, exception);
    return deadLetters.publisher().publish(letter)
        ? ProcessingHandlerResponse.CONTINUE
        : ProcessingHandlerResponse.FAIL;
  }

  private static @Nullable String view(ViewLocator.@Nullable Step step, Exception exception) {
    if (step != null) {
      return step.view();
    }
    return (exception instanceof RecordDecodingException decoding) ? decoding.view() : null;
  }

  private static DeadLetterReason reason(ViewLocator.@Nullable Step step, Exception exception) {
    DeadLetterReason known = DeadLetterReason.of(exception);
    if (known != null) {
      return known;
    }
    return (step != null) ? step.reason() : DeadLetterReason.PROCESSING;
  }
}
