package dev.matview.query.answer;

/**
 * Which replica of a store partition answered, and how far behind its changelog it was.
 *
 * @param servedBy the {@code host:port} of the answering instance
 * @param role active or standby
 * @param offsetLag changelog offsets the replica lags behind, 0 when caught up
 */
public record Replica(String servedBy, Role role, long offsetLag) {

  /** The role of an answering replica. */
  public enum Role {
    /** The replica that processes the partition's records. */
    ACTIVE("active"),
    /** A warm copy kept from the changelog. */
    STANDBY("standby");

    private final String label;

    Role(String label) {
      this.label = label;
    }

    /** The lower-case name used in headers. */
    public String label() {
      return this.label;
    }
  }
}
