package dev.floe.tck.write;

import dev.floe.tck.JarDriver;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a program from the test classpath in a child JVM (its own process, working directory and
 * class loading), as a second user of the same lake would be.
 */
public final class ChildJvm {
  private final Process process;
  private final Path output;

  private ChildJvm(Process process, Path output) {
    this.process = process;
    this.output = output;
  }

  /** Starts {@code main} of a class with arguments, in a working directory. */
  public static ChildJvm start(
      Path workingDirectory, Path logFolder, Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Dfile.encoding=UTF-8");
    command.add("-Dsun.jnu.encoding=UTF-8");
    command.add("-D" + JarDriver.JAR_PROPERTY + "=" + JarDriver.jar());
    command.add("-cp");
    command.add(classPath());
    command.add(main.getName());
    command.addAll(args);
    try {
      Files.createDirectories(logFolder);
      Path output = Files.createTempFile(logFolder, main.getSimpleName(), ".log");
      Process process =
          new ProcessBuilder(command)
              .directory(workingDirectory.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      return new ChildJvm(process, output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits for the program to end; returns its exit status. */
  public int await(long timeoutSeconds) throws InterruptedException {
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "Child JVM did not finish in " + timeoutSeconds + " s; output:\n" + output());
    }
    return process.exitValue();
  }

  /** Kills the process at once, as {@code kill -9} does: no shutdown hook, no cleanup. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
  }

  /** Everything the program printed. */
  public String output() {
    try {
      return Files.readString(output, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines the program printed. */
  public List<String> lines() {
    return output().lines().toList();
  }

  /**
   * The test classpath as a path list a child can use: surefire's manifest-only booter jar names
   * the real entries in its manifest, which {@code java -cp} follows.
   */
  private static String classPath() {
    String path = System.getProperty("java.class.path");
    List<String> absolute = new ArrayList<>();
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        absolute.add(Path.of(entry).toAbsolutePath().toString());
      }
    }
    return String.join(File.pathSeparator, absolute);
  }
}
