package dev.matview.autoconfigure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/** Configuration properties of Matview's materialized views. */
@ConfigurationProperties("matview")
public class MatviewProperties {

  /**
   * Host part of Kafka Streams' application.server, by which other instances reach this one; the
   * port is the web server's actual port. Defaults to this host's name.
   */
  private @Nullable String advertisedHost;

  /**
   * Stable id of this instance in the Kafka Streams group (group.instance.id, static membership),
   * by which a restarted instance gets its partitions back without a rebalance. Defaults to the
   * advertised host and the absolute state dir.
   */
  private @Nullable String instanceId;

  /**
   * Number of warm copies of each store partition that other instances keep (num.standby.replicas),
   * ready to take over after a failure. Defaults to Kafka Streams' 0.
   */
  private @Nullable Integer standbyReplicas;

  /**
   * Whether a clean shutdown removes this instance from the group at once, so that others take over
   * its partitions without waiting for session.timeout.ms.
   */
  private boolean leaveGroupOnClose = true;

  private final Web web = new Web();

  private final Rocksdb rocksdb = new Rocksdb();

  private final Forwarding forwarding = new Forwarding();

  private final StandbyReads standbyReads = new StandbyReads();

  private final StartupChecks startupChecks = new StartupChecks();

  private final DeadLetter deadLetter = new DeadLetter();

  private final Health health = new Health();

  private final Peers peers = new Peers();

  private final Records records = new Records();

  private final Dashboard dashboard = new Dashboard();

  private final Consistency consistency = new Consistency();

  private final Changes changes = new Changes();

  private final Lookups lookups = new Lookups();

  private final Logging logging = new Logging();

  public @Nullable String getAdvertisedHost() {
    return this.advertisedHost;
  }

  public void setAdvertisedHost(@Nullable String advertisedHost) {
    this.advertisedHost = advertisedHost;
  }

  public @Nullable String getInstanceId() {
    return this.instanceId;
  }

  public void setInstanceId(@Nullable String instanceId) {
    this.instanceId = instanceId;
  }

  public @Nullable Integer getStandbyReplicas() {
    return this.standbyReplicas;
  }

  public void setStandbyReplicas(@Nullable Integer standbyReplicas) {
    this.standbyReplicas = standbyReplicas;
  }

  public boolean isLeaveGroupOnClose() {
    return this.leaveGroupOnClose;
  }

  public void setLeaveGroupOnClose(boolean leaveGroupOnClose) {
    this.leaveGroupOnClose = leaveGroupOnClose;
  }

  public Web getWeb() {
    return this.web;
  }

  public Lookups getLookups() {
    return this.lookups;
  }

  public Consistency getConsistency() {
    return this.consistency;
  }

  public Changes getChanges() {
    return this.changes;
  }

  public Rocksdb getRocksdb() {
    return this.rocksdb;
  }

  public Forwarding getForwarding() {
    return this.forwarding;
  }

  public StandbyReads getStandbyReads() {
    return this.standbyReads;
  }

  public StartupChecks getStartupChecks() {
    return this.startupChecks;
  }

  public DeadLetter getDeadLetter() {
    return this.deadLetter;
  }

  public Health getHealth() {
    return this.health;
  }

  public Peers getPeers() {
    return this.peers;
  }

  public Records getRecords() {
    return this.records;
  }

  public Dashboard getDashboard() {
    return this.dashboard;
  }

  public Logging getLogging() {
    return this.logging;
  }

  /** Properties of the HTTP lookup endpoints. */
  public static class Web {

    /** Whether the lookup endpoints are registered. */
    private boolean enabled = true;

    /** Base path of the lookup endpoints. */
    private String basePath = "/views";

    /** Largest number of items a scan page may hold, the largest accepted 'limit'. */
    private int maxPageSize = 1000;

    /** Most keys one batch lookup accepts. */
    private int maxBatchSize = 1000;

    /**
     * Largest request body a batch lookup accepts; a larger one is refused with 413 before it is
     * read.
     */
    private DataSize maxBatchBody = DataSize.ofMegabytes(2);

    /**
     * Longest key, in UTF-8 bytes, that a lookup accepts: longer keys in the path are refused with
     * 414, in a batch or a scan bound with 400.
     */
    private DataSize maxKeyLength = DataSize.ofKilobytes(1);

    /**
     * Whether the web server's own errors, such as a malformed request line or a header that is too
     * large, are answered as problem details instead of the server's HTML page, on Tomcat and
     * Jetty.
     */
    private boolean serverProblemDetails = true;

    public boolean isEnabled() {
      return this.enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public String getBasePath() {
      return this.basePath;
    }

    public void setBasePath(String basePath) {
      this.basePath = basePath;
    }

    /** The base path without a trailing slash, as the paths below it are built from it. */
    public String basePathWithoutTrailingSlash() {
      return this.basePath.endsWith("/")
          ? this.basePath.substring(0, this.basePath.length() - 1)
          : this.basePath;
    }

    public int getMaxPageSize() {
      return this.maxPageSize;
    }

    public void setMaxPageSize(int maxPageSize) {
      this.maxPageSize = maxPageSize;
    }

    public int getMaxBatchSize() {
      return this.maxBatchSize;
    }

    public void setMaxBatchSize(int maxBatchSize) {
      this.maxBatchSize = maxBatchSize;
    }

    public DataSize getMaxBatchBody() {
      return this.maxBatchBody;
    }

    public void setMaxBatchBody(DataSize maxBatchBody) {
      this.maxBatchBody = maxBatchBody;
    }

    public DataSize getMaxKeyLength() {
      return this.maxKeyLength;
    }

    public void setMaxKeyLength(DataSize maxKeyLength) {
      this.maxKeyLength = maxKeyLength;
    }

    public boolean isServerProblemDetails() {
      return this.serverProblemDetails;
    }

    public void setServerProblemDetails(boolean serverProblemDetails) {
      this.serverProblemDetails = serverProblemDetails;
    }
  }

  /** Properties of the RocksDB stores' shared memory bound. */
  public static class Rocksdb {

    /** Whether the bounded-memory RocksDB config setter is installed. */
    private boolean bounded = true;

    /**
     * Off-heap memory shared by all RocksDB stores of the process: block cache, index and filter
     * blocks, and memtables.
     */
    private DataSize totalMemory = DataSize.ofMegabytes(256);

    /**
     * Share of the total memory that memtables may use, greater than 0 and at most 1. Unset, the
     * share is 0.25 and grows, up to half the total, to give 256 KB to each store the start-up
     * checks plan for.
     */
    private double writeBufferRatio = 0.25;

    private boolean writeBufferRatioSet;

    /**
     * Whether the block cache fails reads instead of exceeding the total memory; memtables are not
     * held back by it, and their charges the cache refuses are no longer counted.
     */
    private boolean strictLimit = false;

    public boolean isBounded() {
      return this.bounded;
    }

    public void setBounded(boolean bounded) {
      this.bounded = bounded;
    }

    public DataSize getTotalMemory() {
      return this.totalMemory;
    }

    public void setTotalMemory(DataSize totalMemory) {
      this.totalMemory = totalMemory;
    }

    public double getWriteBufferRatio() {
      return this.writeBufferRatio;
    }

    public void setWriteBufferRatio(double writeBufferRatio) {
      this.writeBufferRatio = writeBufferRatio;
      this.writeBufferRatioSet = true;
    }

    /** Whether the write buffer ratio was configured rather than left at its default. */
    public boolean isWriteBufferRatioSet() {
      return this.writeBufferRatioSet;
    }

    public boolean isStrictLimit() {
      return this.strictLimit;
    }

    public void setStrictLimit(boolean strictLimit) {
      this.strictLimit = strictLimit;
    }
  }

  /** Properties of lookups forwarded to the instance that owns a key. */
  public static class Forwarding {

    /** How long a forwarded lookup may take, connecting included. */
    private Duration timeout = Duration.ofSeconds(2);

    /**
     * Name of the SSL bundle whose trust material verifies other instances when the server uses
     * TLS; defaults to the server's own bundle, else the JVM's trust store.
     */
    private @Nullable String sslBundle;

    /**
     * Whether the network between the instances is trusted, so that a caller's Authorization header
     * goes along with a lookup forwarded over plain HTTP; over TLS it always does.
     */
    private boolean trustedNetwork;

    public Duration getTimeout() {
      return this.timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    public @Nullable String getSslBundle() {
      return this.sslBundle;
    }

    public void setSslBundle(@Nullable String sslBundle) {
      this.sslBundle = sslBundle;
    }

    public boolean isTrustedNetwork() {
      return this.trustedNetwork;
    }

    public void setTrustedNetwork(boolean trustedNetwork) {
      this.trustedNetwork = trustedNetwork;
    }
  }

  /** Properties of positions: answers at least as new as one seen before, or one's own writes. */
  public static class Consistency {

    /**
     * How long a lookup whose replica has not yet applied the position or the records it asks for
     * may wait for it before it is answered 503 with Retry-After; 0 answers at once.
     */
    private Duration maxWait = Duration.ofSeconds(2);

    public Duration getMaxWait() {
      return this.maxWait;
    }

    public void setMaxWait(Duration maxWait) {
      this.maxWait = maxWait;
    }
  }

  /** Properties of key and window lookups. */
  public static class Lookups {

    /**
     * How long a lookup that every replica refuses for a moment (the instances rebalance, a
     * replica's lag is not known yet, an instance was just found down) is routed again, every 250
     * ms and without holding a request thread, before its 503 is answered; 0 answers at once.
     */
    private Duration retryWithin = Duration.ofSeconds(1);

    public Duration getRetryWithin() {
      return this.retryWithin;
    }

    public void setRetryWithin(Duration retryWithin) {
      this.retryWithin = retryWithin;
    }
  }

  /** Properties of change streams ({@code GET .../keys/{key}/changes}). */
  public static class Changes {

    /** Events that may wait for one slow client before its stream is dropped. */
    private int buffer = 1000;

    /** Change streams this instance serves at once, relayed ones included; 429 beyond. */
    private int maxStreams = 10_000;

    /**
     * Most bytes of the updates of each followed store partition kept for streams that reconnect
     * with their last event's id (each update counted as its key, its value and about 100 bytes);
     * the newest update is kept whatever its size.
     */
    private DataSize historySize = DataSize.ofMegabytes(1);

    /**
     * How long the updates of a store partition are kept after its last stream left, for a client
     * that reconnects with its last event's id; then they are released.
     */
    private Duration historyLinger = Duration.ofSeconds(30);

    /**
     * How often an idle stream writes a comment, so that a client that went away is noticed and its
     * stream counted back.
     */
    private Duration heartbeat = Duration.ofSeconds(15);

    public Duration getHeartbeat() {
      return this.heartbeat;
    }

    public void setHeartbeat(Duration heartbeat) {
      this.heartbeat = heartbeat;
    }

    public int getBuffer() {
      return this.buffer;
    }

    public void setBuffer(int buffer) {
      this.buffer = buffer;
    }

    public int getMaxStreams() {
      return this.maxStreams;
    }

    public void setMaxStreams(int maxStreams) {
      this.maxStreams = maxStreams;
    }

    public DataSize getHistorySize() {
      return this.historySize;
    }

    public void setHistorySize(DataSize historySize) {
      this.historySize = historySize;
    }

    public Duration getHistoryLinger() {
      return this.historyLinger;
    }

    public void setHistoryLinger(Duration historyLinger) {
      this.historyLinger = historyLinger;
    }
  }

  /** Properties of the checks of the views' topics before Kafka Streams starts. */
  public static class StartupChecks {

    /**
     * Whether source, changelog and repartition topics are checked on the broker before Kafka
     * Streams starts.
     */
    private boolean enabled = true;

    /** How long the checks wait for the broker before start-up fails. */
    private Duration timeout = Duration.ofSeconds(30);

    public boolean isEnabled() {
      return this.enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getTimeout() {
      return this.timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** Properties of the dead-letter topic, where records that views cannot use go. */
  public static class DeadLetter {

    /**
     * Whether a record that cannot be deserialized, lacks its event time or makes its aggregation
     * throw goes to the dead-letter topic while processing goes on; when false, Kafka Streams stops
     * with an error at such a record.
     */
    private boolean enabled = true;

    /**
     * Topic that records which views cannot use are written to, created at start-up when missing;
     * defaults to the application id followed by '-dlq'.
     */
    private @Nullable String topic;

    /**
     * Largest dead letter written, headers included; a record that would be larger has its value,
     * then its key cut, and says so in the header matview.truncated. At least 32KB, and at most the
     * dead-letter producer's max.request.size, which caps it otherwise.
     */
    private DataSize maxSize = DataSize.ofMegabytes(1);

    /**
     * Whether a record that arrives after its window or session closed (past the grace, measured
     * against stream time) is sent to the dead-letter topic with reason 'late', besides being
     * counted.
     */
    private boolean lateRecords = true;

    public boolean isEnabled() {
      return this.enabled;
    }

    public DataSize getMaxSize() {
      return this.maxSize;
    }

    public void setMaxSize(DataSize maxSize) {
      this.maxSize = maxSize;
    }

    public boolean isLateRecords() {
      return this.lateRecords;
    }

    public void setLateRecords(boolean lateRecords) {
      this.lateRecords = lateRecords;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public @Nullable String getTopic() {
      return this.topic;
    }

    public void setTopic(@Nullable String topic) {
      this.topic = topic;
    }
  }

  /** Bounds on what the views accept from source records. */
  public static class Records {

    /**
     * Most significant digits of a decimal read from or written as JSON, 1 to 1000; a record with a
     * larger one is a dead letter with reason 'number-out-of-bounds'.
     */
    private int maxDecimalPrecision = 38;

    /**
     * Most digits after the decimal point of a decimal read from or written as JSON, 0 to
     * max-decimal-precision; a record with more is a dead letter with reason
     * 'number-out-of-bounds'.
     */
    private int maxDecimalScale = 18;

    /**
     * How far ahead of this instance's clock a record's event time may lie; a record further ahead
     * is a dead letter with reason 'event-time' before it moves stream time or reaches an internal
     * topic.
     */
    private Duration maxEventTimeAhead = Duration.ofMinutes(1);

    public int getMaxDecimalPrecision() {
      return this.maxDecimalPrecision;
    }

    public void setMaxDecimalPrecision(int maxDecimalPrecision) {
      this.maxDecimalPrecision = maxDecimalPrecision;
    }

    public int getMaxDecimalScale() {
      return this.maxDecimalScale;
    }

    public void setMaxDecimalScale(int maxDecimalScale) {
      this.maxDecimalScale = maxDecimalScale;
    }

    public Duration getMaxEventTimeAhead() {
      return this.maxEventTimeAhead;
    }

    public void setMaxEventTimeAhead(Duration maxEventTimeAhead) {
      this.maxEventTimeAhead = maxEventTimeAhead;
    }
  }

  /** Properties of the views' health, readiness and liveness. */
  public static class Health {

    /**
     * Most changelog offsets an active store partition may still have to restore for the views to
     * count as ready, at least 0.
     */
    private long maxRestoreLag = 0;

    /**
     * Free space the state dir's disk should keep, at least 0 (0 turns the check off); below it the
     * health component is OUT_OF_SERVICE.
     */
    private DataSize minFreeDisk = DataSize.ofGigabytes(1);

    public long getMaxRestoreLag() {
      return this.maxRestoreLag;
    }

    public void setMaxRestoreLag(long maxRestoreLag) {
      this.maxRestoreLag = maxRestoreLag;
    }

    public DataSize getMinFreeDisk() {
      return this.minFreeDisk;
    }

    public void setMinFreeDisk(DataSize minFreeDisk) {
      this.minFreeDisk = minFreeDisk;
    }
  }

  /** Properties of lookups answered by standbys and restoring replicas. */
  public static class StandbyReads {

    /**
     * Whether a standby or restoring replica may answer a lookup when the active replica cannot;
     * requests may override it with 'allowStale'.
     */
    private boolean enabled = false;

    /**
     * Most changelog offsets such a replica may lag behind and still answer; requests may lower or
     * raise it with 'maxLag'.
     */
    private long maxLag = 10_000;

    public boolean isEnabled() {
      return this.enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public long getMaxLag() {
      return this.maxLag;
    }

    public void setMaxLag(long maxLag) {
      this.maxLag = maxLag;
    }
  }

  /** Properties of the trust between the instances of the application. */
  public static class Peers {

    /**
     * Secret of at least 32 bytes that every instance of the application shares, and from which the
     * keys that sign cursors and requests between instances derive; when unset, the instances agree
     * on a random one through the topic '<application-id>-matview-peers'.
     */
    private @Nullable String secret;

    /** How long agreeing on the secret through Kafka may take at start-up. */
    private Duration agreementTimeout = Duration.ofSeconds(30);

    /**
     * How long lookups skip an instance that refused a connection or did not answer in time, going
     * straight to a standby; longer while the assignment no longer names it, until it shows up
     * again. Zero to never skip.
     */
    private Duration downTime = Duration.ofSeconds(2);

    /**
     * How far a signed request's timestamp may lie from this instance's clock and still be
     * accepted, which also bounds the clock difference between instances.
     */
    private Duration signatureValidity = Duration.ofSeconds(30);

    public @Nullable String getSecret() {
      return this.secret;
    }

    public void setSecret(@Nullable String secret) {
      this.secret = secret;
    }

    public Duration getAgreementTimeout() {
      return this.agreementTimeout;
    }

    public void setAgreementTimeout(Duration agreementTimeout) {
      this.agreementTimeout = agreementTimeout;
    }

    public Duration getDownTime() {
      return this.downTime;
    }

    public void setDownTime(Duration downTime) {
      this.downTime = downTime;
    }

    public Duration getSignatureValidity() {
      return this.signatureValidity;
    }

    public void setSignatureValidity(Duration signatureValidity) {
      this.signatureValidity = signatureValidity;
    }
  }

  /** Properties of the dashboard page. */
  public static class Dashboard {

    /**
     * Whether the dashboard page is served at /matview, to those who may read the actuator endpoint
     * matviews.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
      return this.enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** Properties of what the application logs. */
  public static class Logging {

    /**
     * How much Kafka's clients, Kafka Streams and an in-process broker log: 'quiet' sets their
     * loggers to WARN, below any logging.level property, so that the start-up summary comes first;
     * 'verbose' leaves them at the logging system's levels, with every client's configuration and
     * each rebalance at INFO.
     */
    private KafkaLogging kafka = KafkaLogging.QUIET;

    public KafkaLogging getKafka() {
      return this.kafka;
    }

    public void setKafka(KafkaLogging kafka) {
      this.kafka = kafka;
    }
  }

  /** How much Kafka's own loggers say. */
  public enum KafkaLogging {

    /** Warnings and errors only, unless a logging.level property says otherwise. */
    QUIET,

    /** Whatever the logging system's levels let through. */
    VERBOSE
  }
}
