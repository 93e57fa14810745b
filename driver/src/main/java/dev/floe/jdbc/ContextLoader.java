package dev.floe.jdbc;

/**
 * Runs a JDBC call with the driver's class loader as the thread's context class loader, and puts
 * the caller's back afterwards. Iceberg finds its Parquet writer and other parts by reflection
 * through the context loader; inside a tool that loads the driver jar in a class loader of its
 * own, the caller's context loader cannot see them.
 */
final class ContextLoader implements AutoCloseable {
  private static final ClassLoader DRIVER = ContextLoader.class.getClassLoader();

  private final Thread thread;
  private final ClassLoader previous;

  private ContextLoader() {
    this.thread = Thread.currentThread();
    this.previous = thread.getContextClassLoader();
    thread.setContextClassLoader(DRIVER);
  }

  /** Switches to the driver's loader until {@link #close()}. */
  static ContextLoader enter() {
    return new ContextLoader();
  }

  @Override
  public void close() {
    thread.setContextClassLoader(previous);
  }
}
