package dev.matview.docs;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code java} block read as the compilation unit it must be: a package declaration, its imports
 * and at least one top-level type, whose name (the public one's, when one is public) names its
 * file.
 *
 * @param block the block
 * @param packageName its package
 * @param typeName the name of the type that names its file
 */
record JavaUnit(CodeBlock block, String packageName, String typeName) {

  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

  private static final Pattern TYPE =
      Pattern.compile(
          "^((?:public |final |abstract |sealed |non-sealed |strictfp )*)"
              + "(?:class|record|interface|enum|@interface) (\\w+)",
          Pattern.MULTILINE);

  /**
   * The unit of {@code block}.
   *
   * @throws IllegalArgumentException naming the block when it is a fragment
   */
  static JavaUnit of(CodeBlock block) {
    Matcher packageName = PACKAGE.matcher(block.code());
    Matcher type = TYPE.matcher(block.code());
    if (!packageName.find() || !type.find()) {
      throw new IllegalArgumentException(
          block.where()
              + ": a java block must be a whole compilation unit, as a file of the reader's app"
              + " holds it: its package, its imports and at least one top-level type at the"
              + " start of a line; this one lacks its "
              + (packageName.find(0) ? "top-level type" : "package declaration"));
    }
    String name = type.group(2);
    do {
      if (type.group(1).contains("public")) {
        name = type.group(2);
        break;
      }
    } while (type.find());
    return new JavaUnit(block, packageName.group(1), name);
  }

  /** The path of its source file under a source root. */
  String file() {
    return this.packageName.replace('.', '/') + "/" + this.typeName + ".java";
  }
}
