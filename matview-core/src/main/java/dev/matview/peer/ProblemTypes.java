package dev.matview.peer;

import java.net.URI;

/** The URIs that name the types of Matview's problem details. */
public final class ProblemTypes {

  /** What the URI of every type starts with. */
  public static final String BASE = "https://matview.dev/problems/";

  /** The type of the 404 that says a view holds no value for a key. */
  public static final URI KEY_NOT_FOUND = of("key-not-found");

  private ProblemTypes() {}

  /** The type named {@code name}, such as {@code key-not-found}. */
  public static URI of(String name) {
    return URI.create(BASE + name);
  }
}
