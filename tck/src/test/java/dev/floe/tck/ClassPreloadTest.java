package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The list of classes the driver loads in the background while a first query starts
 * (docs/performance.md, "Time to the first row"): it must name classes the shaded jar holds, under
 * their relocated names, so that a change of libraries or relocations cannot quietly turn it into a
 * list of misses, and the driver must load them inside a class loader of a host's own.
 */
class ClassPreloadTest {
  private static final String RESOURCE = "META-INF/floe/first-query-classes.txt";

  private static List<String> listed(ZipFile jar) throws Exception {
    ZipEntry entry = jar.getEntry(RESOURCE);
    assertThat(entry).as(RESOURCE).isNotNull();
    List<String> names = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(jar.getInputStream(entry), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        String[] parts = line.split(" ");
        for (int i = 1; i < parts.length; i++) {
          names.add(parts[0] + '.' + parts[i]);
        }
      }
    }
    return names;
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
