package dev.matview.peer;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * The secret that the instances of one application share and callers cannot derive; every key that
 * signs cursors, scan positions and requests between instances is derived from it.
 */
public final class PeerSecret {

  /** The fewest bytes a secret may have: 256 bits. */
  public static final int MIN_BYTES = 32;

  private static final HmacKey EXTRACT =
      new HmacKey("matview-peer-secret-v1".getBytes(StandardCharsets.UTF_8));

  private final HmacKey root;

  private PeerSecret(byte[] material) {
    this.root = new HmacKey(EXTRACT.mac(material));
  }

  /**
   * The secret that {@code material} stands for; throws {@link IllegalArgumentException} when it
   * has fewer than {@link #MIN_BYTES} bytes.
   */
  public static PeerSecret of(byte[] material) {
    if (material.length < MIN_BYTES) {
      throw new IllegalArgumentException(
          "a peer secret needs at least " + MIN_BYTES + " bytes, this one has " + material.length);
    }
    return new PeerSecret(material);
  }

  /** The secret written as {@code text}, of at least 32 bytes in UTF-8. */
  public static PeerSecret of(String text) {
    return of(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Fresh random material for a new secret: 256 bits from a {@link SecureRandom}. */
  public static byte[] randomMaterial() {
    byte[] material = new byte[MIN_BYTES];
    new SecureRandom().nextBytes(material);
    return material;
  }

  /** The key for {@code purpose}, such as signing the cursors of one view. */
  public HmacKey key(String purpose) {
    return this.root.derive(purpose);
  }

  @Override
  public String toString() {
    return "PeerSecret[hidden]";
  }
}
