package dev.floe.config;

/**
 * Runs a JDBC call with the driver's class loader as the thread's context class loader, and puts
 * the caller's back afterwards. Iceberg finds its Parquet writer and other parts by reflection
 * through the context loader; inside a tool that loads the driver jar in a class loader of its
 * own, the caller's context loader cannot see them.
 */
public final class ContextLoader implements AutoCloseable {
  private static final ClassLoader DRIVER = ContextLoader.class.getClassLoader();

  /** Entered where the driver's loader already was the context loader: nothing to put back. */
  private static final ContextLoader UNCHANGED = new ContextLoader(null, null);

  private final Thread thread;
  private final ClassLoader previous;

  private ContextLoader(Thread thread, ClassLoader previous) {
    this.thread = thread;
    this.previous = previous;
  }

  /** Switches to the driver's loader until {@link #close()}. */
  public static ContextLoader enter() {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    if (previous == DRIVER) {
      return UNCHANGED; // ResultSet.next() comes here once a row: keep it cheap
    }
    thread.setContextClassLoader(DRIVER);
    return new ContextLoader(thread, previous);
  }

  @Override
  public void close() {
    if (thread != null) {
      thread.setContextClassLoader(previous);
    }
  }
}
