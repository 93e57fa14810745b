package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver never uses Hadoop's {@code FileSystem}: a child JVM with only the shaded jar on its
 * class path runs a full read and write cycle under {@code -verbose:class}, and neither Hadoop's
 * {@code Path}, nor {@code FileSystem$Cache} (created by {@code FileSystem}'s static initialiser),
 * nor {@code RawLocalFileSystem} (inside every local file system instance) is ever loaded.
 *
 * <p>The {@code FileSystem} class itself is loaded but never initialised: Iceberg's {@code
 * Parquet.WriteBuilder} constructor calls {@code new Configuration()}, and the JVM's bytecode
 * verifier loads {@code FileSystem} and {@code LocalFileSystem} to check {@code Configuration}'s
 * methods.
 */
class NoHadoopFileSystemTest {
  @TempDir Path temp;

  @Test
  void aFullReadAndWriteCycleNeverInitialisesOrOpensAHadoopFileSystem() throws Exception {
    Path lake = temp.resolve("lake");
    Table table =
        ReferenceWriter.create(
            lake.resolve("written"), ReferenceLake.LETTERS, PartitionSpec.unpartitioned(), 2);
    List<DataFile> files =
        ReferenceWriter.append(
            table,
            ReferenceWriter.record(
                ReferenceLake.LETTERS, java.time.LocalDate.of(2024, 1, 1), 1, "a"),
            ReferenceWriter.record(
                ReferenceLake.LETTERS, java.time.LocalDate.of(2024, 1, 2), 2, "b"));
    ReferenceWriter.positionDelete(ReferenceWriter.load(lake.resolve("written")), files.get(0), 0);

    Path classes = temp.resolve("classes");
    Path target = classes.resolve(ReadWriteCycle.class.getName().replace('.', '/') + ".class");
    Files.createDirectories(target.getParent());
    try (InputStream in = ReadWriteCycle.class.getResourceAsStream("ReadWriteCycle.class")) {
      Files.copy(in, target);
    }
    Path log = temp.resolve("child.log");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-verbose:class",
                "-cp",
                System.getProperty("floe.driver.jar") + File.pathSeparator + classes,
                ReadWriteCycle.class.getName(),
                "jdbc:floe:" + lake)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean ended = child.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      child.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    List<String> loaded = output.lines().filter(l -> l.contains("[class,load]")).toList();
    assertThat(ended).as("the child ended").isTrue();
    assertThat(child.exitValue()).as("exit status; output:%n%s", tail(output)).isZero();
    assertThat(output).contains("visits 2").contains("written 1");
    // The observation works: the driver's and Parquet's classes show up, from the shaded jar.
    assertThat(loaded).anyMatch(l -> l.contains(" dev.floe.FloeDriver "));
    assertThat(loaded).anyMatch(l -> l.contains(" org.apache.parquet.hadoop.ParquetFileReader "));
    for (String never :
        List.of(
            "org.apache.hadoop.fs.Path",
            "org.apache.hadoop.fs.FileSystem$Cache",
            "org.apache.hadoop.fs.FileSystem$Statistics",
            "org.apache.hadoop.fs.RawLocalFileSystem")) {
      assertThat(loaded).noneMatch(l -> l.contains(" " + never + " "));
    }
  }

  private static String tail(String output) {
    return output
        .lines()
        .filter(l -> !l.contains("[class,load]"))
        .limit(40)
        .reduce("", (a, b) -> a + b + "\n");
  }
}
