package dev.floe.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.config.FloeProperty;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The README stays true to the code: its property table, its commands, its section order. */
class ReadmeTest {
  private static final String TABLE_START =
      "<!-- properties:start (generated from FloeProperty; ReadmeTest checks it) -->";
  private static final String TABLE_END = "<!-- properties:end -->";

  static Path repository;
  static String readme;

  @BeforeAll
  static void readTheReadme() throws IOException {
    Path here = Path.of("").toAbsolutePath();
    while (!Files.exists(here.resolve(".ci").resolve("run"))) {
      here = here.getParent();
    }
    repository = here;
    readme = Files.readString(repository.resolve("README.md"));
  }

  /** The Markdown table of every connection property, as the README shows it. */
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
    int start = readme.indexOf(TABLE_START);
    int end = readme.indexOf(TABLE_END);
    assertThat(start).as("README has the marker " + TABLE_START).isNotNegative();
    assertThat(end).isGreaterThan(start);
    String inReadme = readme.substring(start + TABLE_START.length(), end).strip() + "\n";

    assertThat(inReadme)
        .as("README's property table; replace it with:%n%s", propertyTable())
        .isEqualTo(propertyTable());
  }

  @Test
  void theSectionsComeInTheAgreedOrder() {
    List<String> headings = new ArrayList<>();
    Matcher heading = Pattern.compile("(?m)^## (.+)$").matcher(readme);
    while (heading.find()) {
      headings.add(heading.group(1).trim());
    }

    assertThat(headings)
        .containsSubsequence(
            "Quick start",
            "Tests",
            "URL forms",
            "Connection properties",
            "DBeaver",
            "Transactions",
            "DDL",
            "Types",
            "S3",
            "Known limits");
    assertThat(headings.get(0)).isEqualTo("Quick start");
    assertThat(headings.get(1)).isEqualTo("Tests");
  }

  @Test
  void theQuickStartIsOneCommand() {
    assertThat(firstCodeBlock("Quick start")).isEqualTo("./floe");
    assertThat(repository.resolve("floe")).isExecutable();
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
  void everyExampleItNamesExists() throws Exception {
    Matcher main = Pattern.compile("-Dexec\\.mainClass=([\\w.]+)").matcher(readme);
    List<String> classes = new ArrayList<>();
    while (main.find()) {
      classes.add(main.group(1));
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

  private static String firstCodeBlock(String section) {
    int at = readme.indexOf("\n## " + section + "\n");
    assertThat(at).as("section " + section).isNotNegative();
    Matcher block = Pattern.compile("```[a-z]*\\n(.*?)\\n```", Pattern.DOTALL).matcher(readme);
    assertThat(block.find(at)).isTrue();
    return block.group(1).strip();
  }
}
