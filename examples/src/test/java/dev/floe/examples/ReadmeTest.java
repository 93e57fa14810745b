package dev.floe.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.config.FloeProperty;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README and the pages of {@code docs/} stay true to the code: the property table, the two
 * commands, the README's sections and length, the examples they name, their links, and the places
 * in the code that cite them.
 */
class ReadmeTest {
  private static final String TABLE_START =
      "<!-- properties:start (generated from FloeProperty; ReadmeTest checks it) -->";
  private static final String TABLE_END = "<!-- properties:end -->";

  /** The page of {@code docs/} that holds the property table. */
  private static final String PROPERTY_PAGE = "docs/connecting.md";

  static Path repository;
  static String readme;

  /** README.md, ARCHITECTURE.md and every page of docs/, by path from the repository root. */
  static Map<String, String> documents = new LinkedHashMap<>();

  @BeforeAll
  static void readTheDocuments() throws IOException {
    Path here = Path.of("").toAbsolutePath();
    while (!Files.exists(here.resolve(".ci").resolve("run"))) {
      here = here.getParent();
    }
    repository = here;
    readme = Files.readString(repository.resolve("README.md"));
    documents.put("README.md", readme);
    documents.put("ARCHITECTURE.md", Files.readString(repository.resolve("ARCHITECTURE.md")));
    try (Stream<Path> pages = Files.list(repository.resolve("docs"))) {
      for (Path page : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        documents.put("docs/" + page.getFileName(), Files.readString(page));
      }
    }
  }

  /** The Markdown table of every connection property, as the docs show it. */
  static String propertyTable() {
    StringBuilder table = new StringBuilder("| Property | Default | Meaning |\n|---|---|---|\n");
    for (FloeProperty property : FloeProperty.values()) {
      String meaning = property.description();
      if (property.secret()) {
        meaning += " Secret: never shown in messages, logs, `getURL()` or `toString()`.";
      }
      table
          .append("| `")
          .append(property.key())
          .append("` | ")
          .append(property.defaultValue().isEmpty() ? "none" : "`" + property.defaultValue() + "`")
          .append(" | ")
          .append(meaning.replace("|", "\\|"))
          .append(" |\n");
    }
    return table.toString();
  }

  @Test
  void thePropertyTableIsTheOneGeneratedFromFloeProperty() {
    String page = documents.get(PROPERTY_PAGE);
    int start = page.indexOf(TABLE_START);
    int end = page.indexOf(TABLE_END);
    assertThat(start).as(PROPERTY_PAGE + " has the marker " + TABLE_START).isNotNegative();
    assertThat(end).isGreaterThan(start);
    String inPage = page.substring(start + TABLE_START.length(), end).strip() + "\n";

    assertThat(inPage)
        .as("%s's property table; replace it with:%n%s", PROPERTY_PAGE, propertyTable())
        .isEqualTo(propertyTable());
    for (Map.Entry<String, String> other : documents.entrySet()) {
      if (!other.getKey().equals(PROPERTY_PAGE)) {
        assertThat(other.getValue()).as(other.getKey()).doesNotContain(TABLE_START);
      }
    }
  }

  @Test
  void theReadmeIsAFrontDoorOfAtMost200Lines() {
    assertThat(readme.lines().count()).isLessThanOrEqualTo(200);
  }

  @Test
  void theSectionsComeInTheAgreedOrder() {
    assertThat(headings(readme, "##"))
        .containsExactly(
            "Quick start", "Tests", "Connecting", "A first query", "Documentation", "License");
  }

  @Test
  void theQuickStartIsOneCommand() {
    assertThat(firstCodeBlock("Quick start")).isEqualTo("./floe");
    assertThat(repository.resolve("floe")).isExecutable();
    assertThat(repository.resolve("mvnw")).isExecutable();
  }

  @Test
  void theTestCommandIsTheOneCiRuns() throws IOException {
    List<String> ci =
        Files.readAllLines(repository.resolve(".ci").resolve("run")).stream()
            .map(String::strip)
            .filter(line -> !line.isEmpty() && !line.startsWith("#"))
            .toList();

    assertThat(firstCodeBlock("Tests")).isEqualTo("./mvnw -B verify");
    assertThat(ci.get(ci.size() - 1)).isEqualTo(firstCodeBlock("Tests"));
  }

  @Test
  void everyMavenCommandGoesThroughTheWrapper() {
    Pattern bare = Pattern.compile("(?m)(^|`)mvn ");
    for (Map.Entry<String, String> document : documents.entrySet()) {
      assertThat(bare.matcher(document.getValue()).find())
          .as("%s runs Maven as ./mvnw, the wrapper that pins its version", document.getKey())
          .isFalse();
    }
  }

  @Test
  void everyExampleTheyNameExists() throws Exception {
    List<String> classes = new ArrayList<>();
    for (String text : documents.values()) {
      Matcher main = Pattern.compile("-Dexec\\.mainClass=([\\w.]+)").matcher(text);
      while (main.find()) {
        classes.add(main.group(1));
      }
    }

    assertThat(classes)
        .contains(
            "dev.floe.examples.QuickStart",
            "dev.floe.examples.EtlLoad",
            "dev.floe.examples.QueryLake");
    for (String name : classes) {
      assertThat(Class.forName(name).getMethod("main", String[].class)).isNotNull();
    }
  }

  @Test
  void theIndexListsEveryPageAndTheReadmeLinksTheIndex() {
    Set<String> pages = new TreeSet<>();
    for (String path : documents.keySet()) {
      if (path.startsWith("docs/") && !path.equals("docs/README.md")) {
        pages.add(path);
      }
    }
    assertThat(pages).hasSizeGreaterThan(10);

    assertThat(links("docs/README.md").stream().map(Link::path).collect(Collectors.toSet()))
        .containsAll(pages);
    assertThat(links("README.md").stream().map(Link::path).collect(Collectors.toSet()))
        .contains("docs/README.md")
        .containsAll(pages);
  }

  @Test
  void everyLinkLeadsToAFileAndHeadingThatExist() {
    List<String> broken = new ArrayList<>();
    for (String document : documents.keySet()) {
      for (Link link : links(document)) {
        if (!Files.exists(repository.resolve(link.path()))) {
          broken.add(document + ": " + link.target() + " (no such file)");
        } else if (link.anchor() != null
            && !anchors(link.path()).contains(link.anchor().toLowerCase(Locale.ROOT))) {
          broken.add(document + ": " + link.target() + " (no such heading)");
        }
      }
    }
    assertThat(broken).isEmpty();
  }

  /**
   * Code comments, build files and messages cite a document and a section by its heading, as {@code
   * (docs/connecting.md, "Living in a host")}: the section must be there.
   */
  @Test
  void everyCitationInTheCodeNamesASectionThatExists() throws IOException {
    Pattern citation =
        Pattern.compile(
            "(README\\.md|README|ARCHITECTURE\\.md|docs/[\\w-]+\\.md),? \\\\?\"([^\"\\\\]+)\\\\?\"");
    // the continuation of a comment or a wrapped build file line, read as one space
    Pattern wrap = Pattern.compile("\\s*\\n\\s*(\\*(?!/)|//)?\\s*");
    List<String> wrong = new ArrayList<>();
    int citations = 0;
    for (Path file : sources()) {
      String text = wrap.matcher(Files.readString(file)).replaceAll(" ");
      Matcher cited = citation.matcher(text);
      while (cited.find()) {
        citations++;
        String document = cited.group(1).equals("README") ? "README.md" : cited.group(1);
        if (!documents.containsKey(document)) {
          wrong.add(repository.relativize(file) + ": " + cited.group() + " (no such document)");
        } else if (!headings(documents.get(document)).contains(cited.group(2))) {
          wrong.add(repository.relativize(file) + ": " + cited.group() + " (no such section)");
        }
      }
    }
    assertThat(citations).isGreaterThan(20);
    assertThat(wrong).isEmpty();
  }

  /** A relative link of a document: the file it leads to (from the root) and the heading. */
  record Link(String target, String path, String anchor) {}

  private static List<Link> links(String document) {
    String text = documents.get(document);
    // links in code are not links: drop fenced blocks and inline code first
    text = text.replaceAll("(?s)```.*?```", "").replaceAll("`[^`\n]*`", "");
    Path folder = Path.of(document).getParent();
    List<Link> links = new ArrayList<>();
    Matcher link = Pattern.compile("\\]\\(([^)\\s]+)\\)").matcher(text);
    while (link.find()) {
      String target = link.group(1);
      if (target.matches("[a-z]+:.*")) {
        continue; // https:, mailto:
      }
      int hash = target.indexOf('#');
      String file = hash < 0 ? target : target.substring(0, hash);
      String anchor = hash < 0 ? null : target.substring(hash + 1);
      Path resolved =
          file.isEmpty()
              ? Path.of(document)
              : (folder == null ? Path.of(file) : folder.resolve(file)).normalize();
      links.add(new Link(target, resolved.toString().replace('\\', '/'), anchor));
    }
    return links;
  }

  /** The anchors GitHub gives a Markdown file's headings. */
  private static Set<String> anchors(String path) {
    String text = documents.get(path);
    Set<String> anchors = new TreeSet<>();
    if (text != null) {
      for (String heading : headings(text)) {
        anchors.add(
            heading
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-'));
      }
    }
    return anchors;
  }

  /** The headings of every level of a Markdown text, outside code blocks. */
  private static List<String> headings(String text) {
    return headings(text, "#{1,6}");
  }

  /** The headings of one level ({@code "##"}) or several of a Markdown text, outside code. */
  private static List<String> headings(String text, String level) {
    List<String> headings = new ArrayList<>();
    Matcher heading =
        Pattern.compile("(?m)^" + level + " (.+)$").matcher(text.replaceAll("(?s)```.*?```", ""));
    while (heading.find()) {
      headings.add(heading.group(1).strip());
    }
    return headings;
  }

  /** Java sources, FreeMarker templates and poms of every module, and the root pom. */
  private static List<Path> sources() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(repository.resolve("pom.xml"));
    for (String module : List.of("planner", "driver", "examples", "tck")) {
      Path root = repository.resolve(module);
      files.add(root.resolve("pom.xml"));
      try (Stream<Path> walk = Files.walk(root.resolve("src"))) {
        walk.filter(
                p -> {
                  String name = p.getFileName().toString();
                  return name.endsWith(".java") || name.endsWith(".ftl") || name.endsWith(".xml");
                })
            .forEach(files::add);
      }
    }
    return files;
  }

  private static String firstCodeBlock(String section) {
    int at = readme.indexOf("\n## " + section + "\n");
    assertThat(at).as("section " + section).isNotNegative();
    Matcher block = Pattern.compile("```[a-z]*\\n(.*?)\\n```", Pattern.DOTALL).matcher(readme);
    assertThat(block.find(at)).isTrue();
    return block.group(1).strip();
  }
}
