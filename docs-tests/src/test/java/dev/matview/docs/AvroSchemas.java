package dev.matview.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.compiler.specific.SpecificCompiler;
import org.apache.avro.generic.GenericData;

/**
 * The Java classes of the Avro record schemas a page shows as {@code json} blocks, generated as the
 * guide's {@code avro-maven-plugin} generates them (strings as {@code String}, decimals as {@code
 * BigDecimal}), so that the page's Java compiles against the schema it shows.
 */
final class AvroSchemas {

  private AvroSchemas() {}

  /** The source files generated under {@code sources} from the page's record schemas. */
  static List<Path> generate(MarkdownPage page, Path sources) throws IOException {
    Files.createDirectories(sources);
    List<Path> before = javaFiles(sources);
    for (CodeBlock block : page.blocks("json")) {
      if (block.tested() && isRecordSchema(block.code())) {
        SpecificCompiler compiler = new SpecificCompiler(new Schema.Parser().parse(block.code()));
        compiler.setStringType(GenericData.StringType.String);
        compiler.setEnableDecimalLogicalType(true);
        compiler.compileToDestination(null, sources.toFile());
      }
    }
    List<Path> generated = new ArrayList<>(javaFiles(sources));
    generated.removeAll(before);
    return generated;
  }

  private static boolean isRecordSchema(String json) {
    try {
      return new Schema.Parser().parse(json).getType() == Schema.Type.RECORD;
    } catch (AvroRuntimeException ex) {
      return false;
    }
  }

  private static List<Path> javaFiles(Path sources) {
    try (Stream<Path> files = Files.walk(sources)) {
      return files.filter(file -> file.toString().endsWith(".java")).toList();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }
}
