package dev.matview.query;

import dev.matview.topology.NearestNames;
import java.util.List;

/** The request named a view that does not exist; says which views come nearest the name. */
public class UnknownViewException extends RuntimeException {

  /** Up to this many views, a hint lists them all. */
  static final int FEW = 5;

  private final String view;

  private final List<String> nearest;

  /** An exception for the unknown view {@code view}, with no hint. */
  public UnknownViewException(String view) {
    this(view, List.of(), -1);
  }

  private UnknownViewException(String view, List<String> nearest, int views) {
    super(message(view, nearest, views));
    this.view = view;
    this.nearest = List.copyOf(nearest);
  }

  /** The unknown {@code view} among {@code views}: names all when few, else the nearest. */
  public static UnknownViewException among(String view, List<String> views) {
    List<String> nearest =
        views.size() <= FEW
            ? NearestNames.allByNearness(view, views)
            : NearestNames.of(view, views);
    return new UnknownViewException(view, nearest, views.size());
  }

  /** The name that matched no view. */
  public String getView() {
    return this.view;
  }

  /** The views nearest to the name, nearest first: all of them when there are few. */
  public List<String> getNearest() {
    return this.nearest;
  }

  private static String message(String view, List<String> nearest, int views) {
    String unknown = "There is no view named '" + view + "'";
    if (views < 0) {
      return unknown + "; GET the views' base path to list them";
    }
    if (views == 0) {
      return unknown + ": this application declares no views";
    }
    if (views <= FEW) {
      return unknown
          + (views == 1 ? "; the one view is " : "; the views are ")
          + listed(nearest, "and");
    }
    String all = "GET the views' base path to list all " + views;
    if (nearest.isEmpty()) {
      return unknown + ", nor one near it; " + all;
    }
    return unknown + "; did you mean " + listed(nearest, "or") + "? " + all;
  }

  /** {@code 'a'}, {@code 'a' or 'b'}, {@code 'a', 'b' or 'c'}. */
  private static String listed(List<String> names, String conjunction) {
    List<String> quoted = names.stream().map(name -> "'" + name + "'").toList();
    if (quoted.size() == 1) {
      return quoted.get(0);
    }
    return String.join(", ", quoted.subList(0, quoted.size() - 1))
        + " "
        + conjunction
        + " "
        + quoted.get(quoted.size() - 1);
  }
}
