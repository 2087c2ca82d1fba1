package dev.matview.query;

import java.net.URI;

/** The URIs that name the types of Matview's problem details. */
public final class ProblemTypes {

  /** What the URI of every type starts with. */
  public static final String BASE = "https://matview.dev/problems/";

  private ProblemTypes() {}

  /** The type named {@code name}, such as {@code key-not-found}. */
  public static URI of(String name) {
    return URI.create(BASE + name);
  }
}
