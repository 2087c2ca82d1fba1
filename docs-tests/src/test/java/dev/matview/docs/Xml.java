package dev.matview.docs;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** XML read into elements, and the few ways of walking them that the checks need. */
final class Xml {

  private Xml() {}

  /**
   * The root element of {@code text}: a whole document, or a fragment of sibling elements, which is
   * read inside a root of its own.
   *
   * @throws IllegalArgumentException naming {@code where} when the text is no well-formed XML
   */
  static Element parse(String text, String where) {
    String document = text.strip().startsWith("<?xml") ? text : "<fragment>" + text + "</fragment>";
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory
          .newDocumentBuilder()
          .parse(new InputSource(new StringReader(document)))
          .getDocumentElement();
    } catch (SAXException ex) {
      throw new IllegalArgumentException(where + ": not well-formed XML: " + ex.getMessage(), ex);
    } catch (IOException | ParserConfigurationException ex) {
      throw new IllegalStateException(ex);
    }
  }

  /** The element children of {@code parent}. */
  static List<Element> elements(Element parent) {
    List<Element> found = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) {
        found.add(element);
      }
    }
    return found;
  }

  /** The element children of {@code parent} named {@code name}. */
  static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        found.add(element);
      }
    }
    return found;
  }

  /** The text of the first child of {@code parent} named {@code name}, if there is one. */
  static Optional<String> text(Element parent, String name) {
    return children(parent, name).stream().findFirst().map(child -> child.getTextContent().strip());
  }

  /** Every element under {@code root}, itself included, named {@code name}. */
  static List<Element> all(Element root, String name) {
    List<Element> found = new ArrayList<>();
    if (root.getTagName().equals(name)) {
      found.add(root);
    }
    for (Node node = root.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) {
        found.addAll(all(element, name));
      }
    }
    return found;
  }
}
