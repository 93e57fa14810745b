package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit tests what users run: the shaded driver jar alone. Its class path holds no class of Floe,
 * Calcite or Avatica; every connection comes from the jar's own loader, whose parent is the
 * platform loader; and in a JVM whose class path also holds Iceberg, Parquet and Hadoop (as the
 * kit's does, for its independent reference), not one class a Floe statement loads comes from
 * anywhere but the jar, even through the thread's context class loader.
 */
class JarAloneTest {
  /** 64 MiB: the jar's size budget (docs/connecting.md, "Living in a host"). */
  private static final long MAX_JAR_BYTES = 64L * 1024 * 1024;

  private static final Pattern LOADED = Pattern.compile("\\[class,load\\] (\\S+) source: (.*)");

  @TempDir Path temp;

  @Test
  void theKitsClassPathHoldsNeitherFloeNorCalciteNorAvatica() {
    ClassLoader kit = JarAloneTest.class.getClassLoader();
    for (String name :
        List.of(
            "dev.floe.FloeDriver",
            "dev.floe.planner.scan.LakeScan",
            "org.apache.calcite.jdbc.Driver",
            "org.apache.calcite.avatica.AvaticaConnection")) {
      assertThatThrownBy(() -> Class.forName(name, false, kit))
          .as(name)
          .isInstanceOf(ClassNotFoundException.class);
    }
  }

  @Test
  void everyConnectionComesFromALoaderHoldingTheJarAlone() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + temp)) {
      ClassLoader loader = c.getClass().getClassLoader();
      assertThat(loader).isSameAs(JarDriver.loader());
      assertThat(loader.getParent()).isSameAs(ClassLoader.getPlatformClassLoader());
      assertThat(Arrays.asList(((URLClassLoader) loader).getURLs()))
          .containsExactly(JarDriver.jar().toUri().toURL());
    }
  }

  @Test
  void theJarIsNotOlderThanTheDriverClassesAndKeepsItsSizeBudget() throws IOException {
    Path jar = JarDriver.jar();
    assertThat(Files.size(jar)).as("bytes in %s", jar).isLessThanOrEqualTo(MAX_JAR_BYTES);
    Path classes = jar.getParent().resolve("classes");
    if (Files.isDirectory(classes)) {
      long built = Files.getLastModifiedTime(jar).toMillis();
      try (Stream<Path> walk = Files.walk(classes)) {
        List<Path> newer =
            walk.filter(Files::isRegularFile)
                .filter(p -> lastModified(p) > built)
                .limit(5)
                .toList();
        assertThat(newer)
            .as(
                "driver classes compiled after %s was packaged: run ./mvnw verify from the root",
                jar)
            .isEmpty();
      }
    }
  }

  private static long lastModified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return Long.MAX_VALUE;
    }
  }

  @Test
  void noClassAStatementLoadsComesFromTheClassPathBesideTheJar() throws Exception {
    Path log = temp.resolve("classes.log");
    Path out = temp.resolve("out.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-D" + JarDriver.JAR_PROPERTY + "=" + JarDriver.jar());
    command.add("-Xlog:class+load=info:file=" + log);
    command.add("-cp");
    command.add(classPath());
    command.add(JarAloneWorkload.class.getName());
    command.add(temp.resolve("lake").toString());
    Process child =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertThat(child.waitFor(300, TimeUnit.SECONDS)).isTrue();
    String printed = Files.readString(out);
    assertThat(child.exitValue()).as(printed).isZero();
    assertThat(printed).contains("done");

    String jarUrl = JarDriver.jar().toUri().toString();
    List<String> fromElsewhere = new ArrayList<>();
    int fromJar = 0;
    for (String line : Files.readAllLines(log)) {
      Matcher m = LOADED.matcher(line);
      if (!m.find()) {
        continue;
      }
      String name = m.group(1);
      String source = m.group(2);
      boolean driverSide =
          name.startsWith("dev.floe.") && !name.startsWith("dev.floe.tck.")
              || name.startsWith("org.apache.iceberg.")
              || name.startsWith("org.apache.parquet.")
              || name.startsWith("org.apache.hadoop.")
              || name.startsWith("org.apache.avro.")
              || name.startsWith("org.apache.calcite.")
              || name.startsWith("software.amazon.");
      boolean file = source.contains(":") || source.contains("/");
      if (source.contains(jarUrl) || source.contains(JarDriver.jar().toString())) {
        fromJar++;
      } else if (driverSide && file) {
        // a lambda or hidden class names the class that defined it: that class is checked itself
        fromElsewhere.add(name + " from " + source);
      }
    }
    assertThat(fromJar).as("classes loaded from the jar").isGreaterThan(1000);
    assertThat(fromElsewhere).as("driver-side classes from outside the jar").isEmpty();
  }

  /** The kit's class path (Iceberg, Parquet, Hadoop included) as a child JVM takes it. */
  private static String classPath() {
    List<String> absolute = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        absolute.add(Path.of(entry).toAbsolutePath().toString());
      }
    }
    return String.join(File.pathSeparator, absolute);
  }
}
