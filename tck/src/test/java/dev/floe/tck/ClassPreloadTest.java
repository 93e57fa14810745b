package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.tck.bench.FirstRowBenchmark;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The list of classes the driver loads in the background while a first query starts
 * (docs/performance.md, "Time to the first row"): it must name classes the shaded jar holds, under
 * their relocated names, so that a change of libraries or relocations cannot quietly turn it into a
 * list of misses; it must be the list a first query loads today, so that a change to what a first
 * query does cannot quietly leave it behind; and the driver must load them inside a class loader of
 * a host's own.
 *
 * <p>The list is checked rather than written by the build: it comes from a fresh JVM running a
 * query on the shaded jar, which exists only once the jar is packaged, and the jar then holds the
 * list, so writing it in the build would package the jar twice; and its order follows the threads
 * of one run, so a list the build wrote would differ from build to build.
 */
class ClassPreloadTest {
  private static final String RESOURCE = "META-INF/floe/first-query-classes.txt";

  /** The command that writes the list anew (docs/performance.md, "Time to the first row"). */
  private static final String REGENERATE =
      "./mvnw -B -Pbench -DskipTests -pl tck -am verify -Dbench.main=FirstRowBenchmark"
          + " \"-Dbench.args=$PWD/driver/target/floe-jdbc-0.1.0-SNAPSHOT.jar list"
          + " $PWD/driver/src/main/resources/"
          + RESOURCE
          + "\"";

  private static List<String> listed(ZipFile jar) throws Exception {
    ZipEntry entry = jar.getEntry(RESOURCE);
    assertThat(entry).as(RESOURCE).isNotNull();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(jar.getInputStream(entry), StandardCharsets.UTF_8))) {
      return names(reader.lines().toList());
    }
  }

  /** The class names of the list's lines: a package, then the simple names of its classes. */
  private static List<String> names(List<String> lines) {
    List<String> names = new ArrayList<>();
    for (String line : lines) {
      String[] parts = line.split(" ");
      for (int i = 1; i < parts.length; i++) {
        names.add(parts[0] + '.' + parts[i]);
      }
    }
    return names;
  }

  /** The names of {@code these} that {@code those} lacks, in order. */
  private static List<String> without(Collection<String> these, Collection<String> those) {
    Set<String> lacking = new LinkedHashSet<>(these);
    lacking.removeAll(new HashSet<>(those));
    return new ArrayList<>(lacking);
  }

  /**
   * A fresh JVM holding the jar alone runs a first query with preloading off, and the classes it
   * loads are the ones listed, give or take 0.5 % of them: which few JDK classes load before the
   * first row depends on the timing of the scan's threads (one or two from run to run).
   */
  @Test
  void theListIsTheOneAFirstQueryLoadsToday() throws Exception {
    String jar = System.getProperty("floe.driver.jar");
    List<String> listed;
    try (ZipFile zip = new ZipFile(jar)) {
      listed = listed(zip);
    }
    Path written = Files.createTempFile("first-query-classes", ".txt");
    try {
      FirstRowBenchmark.writeList(jar, written);
      List<String> loaded = names(Files.readAllLines(written, StandardCharsets.UTF_8));
      List<String> unlisted = without(loaded, listed);
      List<String> unloaded = without(listed, loaded);
      int allowed = loaded.size() / 200;

      assertThat(loaded).hasSizeGreaterThan(4000);
      assertThat(unlisted)
          .as(
              "classes a first query loads today that %s lacks (%d of %d); regenerate it:%n%s",
              RESOURCE, unlisted.size(), loaded.size(), REGENERATE)
          .hasSizeLessThanOrEqualTo(allowed);
      assertThat(unloaded)
          .as(
              "classes %s lists that a first query no longer loads (%d of %d); regenerate it:%n%s",
              RESOURCE, unloaded.size(), listed.size(), REGENERATE)
          .hasSizeLessThanOrEqualTo(allowed);
    } finally {
      Files.deleteIfExists(written);
    }
  }

  private static boolean fromTheJdk(String name) {
    return name.startsWith("java.")
        || name.startsWith("javax.")
        || name.startsWith("jdk.")
        || name.startsWith("sun.")
        || name.startsWith("com.sun.")
        || name.startsWith("org.w3c.")
        || name.startsWith("org.xml.");
  }

  @Test
  void everyListedClassOutsideTheJdkIsInTheJar() throws Exception {
    try (ZipFile jar = new ZipFile(System.getProperty("floe.driver.jar"))) {
      List<String> names = listed(jar);
      List<String> missing = new ArrayList<>();
      int inJar = 0;
      for (String name : names) {
        if (fromTheJdk(name)) {
          continue;
        }
        inJar++;
        if (jar.getEntry(name.replace('.', '/') + ".class") == null) {
          missing.add(name);
        }
      }
      assertThat(missing).isEmpty();
      // Calcite's planner, Iceberg's metadata, Parquet's reader: thousands of classes
      assertThat(inJar).isGreaterThan(4000);
      assertThat(names).contains("dev.floe.shaded.com.fasterxml.jackson.databind.ObjectMapper");
      assertThat(names).doesNotContain("com.fasterxml.jackson.databind.ObjectMapper");
    }
  }

  /** A host's loader that can tell which classes it has loaded. */
  private static final class HostLoader extends URLClassLoader {
    HostLoader(URL jar) {
      super(new URL[] {jar}, ClassLoader.getPlatformClassLoader());
    }

    boolean loaded(String name) {
      return findLoadedClass(name) != null;
    }
  }

  @Test
  void theDriverLoadsEveryListedClassInAHostsOwnLoader() throws Exception {
    Path jarPath = Path.of(System.getProperty("floe.driver.jar"));
    List<String> names;
    try (ZipFile jar = new ZipFile(jarPath.toFile())) {
      names = listed(jar);
    }
    try (HostLoader host = new HostLoader(jarPath.toUri().toURL())) {
      String rules = "org.apache.calcite.rel.rules.FilterJoinRule";
      assertThat(names).contains(rules);
      // A first query builds only the rules its planner runs, never Calcite's holder of them all.
      assertThat(names).doesNotContain("org.apache.calcite.rel.rules.CoreRules");
      assertThat(host.loaded(rules)).isFalse();
      Class<?> preloader = Class.forName("dev.floe.config.ClassPreloader", true, host);
      int loaded = (int) preloader.getMethod("load", ClassLoader.class).invoke(null, host);
      assertThat(loaded).isEqualTo(names.size());
      assertThat(host.loaded(rules)).isTrue();
    }
  }
}
