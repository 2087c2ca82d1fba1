package dev.matview.processes.openapi;

/**
 * Whether two paths may match the same request: as many segments, equal wherever neither is a
 * template, and as many templated segments in each.
 */
final class PathShapes {

  private PathShapes() {}

  static boolean ambiguous(String a, String b) {
    String[] left = a.split("/", -1);
    String[] right = b.split("/", -1);
    if (left.length != right.length) {
      return false;
    }
    int leftTemplates = 0;
    int rightTemplates = 0;
    for (int i = 0; i < left.length; i++) {
      boolean leftTemplate = isTemplate(left[i]);
      boolean rightTemplate = isTemplate(right[i]);
      leftTemplates += leftTemplate ? 1 : 0;
      rightTemplates += rightTemplate ? 1 : 0;
      if (!leftTemplate && !rightTemplate && !left[i].equals(right[i])) {
        return false;
      }
    }
    return leftTemplates == rightTemplates;
  }

  private static boolean isTemplate(String segment) {
    return segment.length() > 2 && segment.startsWith("{") && segment.endsWith("}");
  }
}
