package dev.floe.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Loads the classes a first query needs on a background thread, while the connection opens and the
 * query is parsed and planned on the caller's: reading and defining classes from the jar is over
 * half of a fresh JVM's time to its first row, and the caller then finds most of them loaded. The
 * classes are only loaded, never initialized, so no static initializer runs on this thread and
 * nothing runs that the query would not run itself (docs/performance.md, "Time to the first row").
 *
 * <p>The list is {@link #RESOURCE} in the driver jar: one package a line, the package name, then
 * the simple names of its classes, separated by spaces, in the order a first query loaded them. A
 * class the jar no longer holds is skipped. It starts once per class loader, at the first
 * connection; the system property {@code floe.preload=false} turns it off.
 */
public final class ClassPreloader {
  /** The resource listing the classes to load. */
  public static final String RESOURCE = "META-INF/floe/first-query-classes.txt";

  /** The system property that turns preloading off when {@code false}. */
  public static final String PROPERTY = "floe.preload";

  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private ClassPreloader() {}

  /** Starts loading the listed classes on a daemon thread, the first time only. */
  public static void start() {
    if (!STARTED.compareAndSet(false, true) || !enabled()) {
      return;
    }
    ClassLoader loader = ClassPreloader.class.getClassLoader();
    try {
      Thread thread = new Thread(() -> load(loader), "floe-preload");
      thread.setDaemon(true);
      thread.setContextClassLoader(loader);
      thread.start();
    } catch (RuntimeException | OutOfMemoryError e) {
      // a host that forbids new threads gets no preloading, and loses nothing else
    }
  }

  private static boolean enabled() {
    try {
      return !"false".equalsIgnoreCase(System.getProperty(PROPERTY));
    } catch (SecurityException e) {
      return true;
    }
  }

  /**
   * Loads every class of {@link #RESOURCE} through {@code loader} without initializing it.
   *
   * @return how many of the listed classes were loaded
   */
  public static int load(ClassLoader loader) {
    int loaded = 0;
    try (InputStream in = loader.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return 0;
      }
      BufferedReader reader =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        String[] names = line.trim().split(" ");
        String prefix = names[0] + '.';
        for (int i = 1; i < names.length; i++) {
          try {
            Class.forName(prefix + names[i], false, loader);
            loaded++;
          } catch (ClassNotFoundException | LinkageError e) {
            // not in this jar (or not loadable here): the query loads what it needs itself
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // an unreadable list only means no preloading
    }
    return loaded;
  }
}
