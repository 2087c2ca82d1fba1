package dev.matview.query;

import dev.matview.peer.PeerResponse;
import dev.matview.peer.ProblemTypes;
import dev.matview.query.ViewBatchService.OwnerKeys;
import dev.matview.query.answer.BatchItem;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.KeyAnswer;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.query.answer.WindowsItem;
import dev.matview.query.peer.PeerAnswers;
import dev.matview.topology.ResolvedView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Both ends of a batch's JSON: the keys asked, as parsed here and as sent to another instance, and
 * the items that come back, from that instance's batch answer or from the lookup of one key, of a
 * table (a value) or of a windowed or session view (windows).
 */
final class BatchAnswers {

  private static final Log logger = LogFactory.getLog(BatchAnswers.class);

  private final ObjectMapper mapper;

  BatchAnswers(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** Key {@code index} of a batch of {@code view}, or a bad-input failure saying why it is not. */
  <K> K key(ResolvedView<K, ?, ?> view, JsonNode rawKey, int index) {
    Class<K> keyType = view.definition().keyType();
    if (rawKey == null || rawKey.isNull() || rawKey.isMissingNode()) {
      throw new InvalidQueryException(
          view.name(), "keys", "Key " + index + " of the batch is null");
    }
    try {
      if (keyType == String.class && !rawKey.isString()) {
        throw new IllegalArgumentException("expected a JSON string");
      }
      K key = this.mapper.treeToValue(rawKey, keyType);
      if (key == null) {
        throw new IllegalArgumentException("it reads as null");
      }
      return key;
    } catch (JacksonException | IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(),
          "keys",
          "Key "
              + index
              + " of the batch, "
              + rawKey
              + ", is not a "
              + keyType.getSimpleName()
              + ": "
              + (ex instanceof JacksonException jackson
                  ? jackson.getOriginalMessage()
                  : ex.getMessage()));
    }
  }

  /** The body of a batch request for {@code keys}. */
  byte[] body(List<JsonNode> keys) {
    return this.mapper.writeValueAsBytes(Map.of("keys", keys));
  }

  /** Fills the items of {@code group} from a batch answer; {@code false} when it is not one. */
  <I> boolean fill(
      ResolvedView<?, ?, ?> view,
      OwnerKeys group,
      PeerResponse response,
      List<@Nullable I> items,
      Function<JsonNode, @Nullable I> owned) {
    if (!response.isSuccess()) {
      return false;
    }
    List<Integer> indexes = group.indexes();
    JsonNode answered;
    try {
      answered = this.mapper.readTree(response.body()).path("items");
    } catch (JacksonException ex) {
      return unreadable(view, group, ex.getOriginalMessage());
    }
    if (answered.size() != indexes.size()) {
      return unreadable(
          view, group, "asked for " + indexes.size() + " keys, got " + answered.size());
    }
    List<I> read = new ArrayList<>(indexes.size());
    for (JsonNode item : answered) {
      I one = owned.apply(item);
      if (one == null) {
        return unreadable(view, group, "an item is not one of this view's: " + item);
      }
      read.add(one);
    }
    for (int i = 0; i < indexes.size(); i++) {
      items.set(indexes.get(i), read.get(i));
    }
    return true;
  }

  /** The item of a table's key that an owner answered in its batch answer. */
  static BatchItem ownedValue(JsonNode item) {
    boolean found = item.path("found").asBoolean();
    return new BatchItem(item.path("key"), found, found ? item.path("value") : null);
  }

  /** The item of a windowed view's key that an owner answered, or {@code null} when not one. */
  static @Nullable WindowsItem ownedWindows(JsonNode item) {
    JsonNode windows = item.path("windows");
    return windows.isArray() ? new WindowsItem(item.path("key"), windows) : null;
  }

  /** The item of a table's {@code key} from its lookup alone, or the refusal. */
  Routed<BatchItem> item(ResolvedView<?, ?, ?> view, Object key, Routed<KeyAnswer> answer) {
    if (answer instanceof Routed.Local<KeyAnswer> local) {
      Object value = local.answer().value();
      return new Routed.Local<>(new BatchItem(key, value != null, value));
    }
    if (answer instanceof Routed.Refused<KeyAnswer> refused) {
      return new Routed.Refused<>(refused.refusal());
    }
    PeerResponse response = ((Routed.Relayed<KeyAnswer>) answer).response();
    if (response.status() == 404 && notFound(response)) {
      return new Routed.Local<>(new BatchItem(key, false, null));
    }
    if (response.isSuccess()) {
      JsonNode value = readOrWarn(view, response).path("value");
      if (!value.isMissingNode()) {
        return new Routed.Local<>(new BatchItem(key, true, value));
      }
    }
    return new Routed.Refused<>(refusal(view, key, response));
  }

  /** The item of a windowed view's {@code key} from its lookup alone, or the refusal. */
  Routed<WindowsItem> windowsItem(
      ResolvedView<?, ?, ?> view, Object key, Routed<WindowsAnswer> answer) {
    if (answer instanceof Routed.Local<WindowsAnswer> local) {
      return new Routed.Local<>(new WindowsItem(key, local.answer().windows()));
    }
    if (answer instanceof Routed.Refused<WindowsAnswer> refused) {
      return new Routed.Refused<>(refused.refusal());
    }
    PeerResponse response = ((Routed.Relayed<WindowsAnswer>) answer).response();
    if (response.isSuccess()) {
      JsonNode windows = readOrWarn(view, response).path("windows");
      if (windows.isArray()) {
        return new Routed.Local<>(new WindowsItem(key, windows));
      }
    }
    return new Routed.Refused<>(refusal(view, key, response));
  }

  /** Why another instance's {@code response} for {@code key} answers no item of the batch. */
  private Refusal refusal(ResolvedView<?, ?, ?> view, Object key, PeerResponse response) {
    int status = response.status();
    String detail = problem(response).path("detail").asString("");
    return new Refusal(
        status == 504
            ? Refusal.Reason.TIMEOUT
            : status == 503 ? Refusal.Reason.UNAVAILABLE : Refusal.Reason.FAILED,
        view.name(),
        key,
        null,
        "Another instance answered "
            + status
            + " for key "
            + key
            + " of this batch"
            + (detail.isEmpty() ? "" : ": " + detail),
        PeerAnswers.retryAfter(response.header("Retry-After")));
  }

  private boolean notFound(PeerResponse response) {
    return ProblemTypes.KEY_NOT_FOUND
        .toString()
        .equals(problem(response).path("type").asString(""));
  }

  /** Another instance's successful answer as JSON, or, logged, an empty node when it is not. */
  private JsonNode readOrWarn(ResolvedView<?, ?, ?> view, PeerResponse response) {
    try {
      return this.mapper.readTree(response.body());
    } catch (JacksonException ex) {
      logger.warn(
          "Another instance sent an answer for a key of view '"
              + view.name()
              + "' that cannot be read: "
              + ex.getOriginalMessage());
      return this.mapper.createObjectNode();
    }
  }

  /** The problem detail another instance answered, or an empty node. */
  private JsonNode problem(PeerResponse response) {
    try {
      return this.mapper.readTree(response.body());
    } catch (JacksonException ex) {
      return this.mapper.createObjectNode();
    }
  }

  private static boolean unreadable(ResolvedView<?, ?, ?> view, OwnerKeys group, String why) {
    logger.warn(
        "The instance "
            + group.owner().describe()
            + " sent a batch answer of view '"
            + view.name()
            + "' that cannot be read ("
            + why
            + "); its keys are looked up one by one");
    return false;
  }
}
