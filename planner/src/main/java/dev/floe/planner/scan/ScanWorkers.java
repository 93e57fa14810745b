package dev.floe.planner.scan;

import dev.floe.error.FloeError;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one worker engine of every scan (rows, column batches, aggregation): pieces {@code 0..n)} of
 * a scan are dealt round-robin to workers on the session's scan executor, worker {@code w} reading
 * pieces {@code w, w+k, w+2k, ...} with the statement's context class loader and putting what it
 * reads on a bounded queue of its own; the statement's thread takes the items of piece {@code i}
 * from worker {@code i mod k}'s queue, so they come in scan order whatever the workers' speed. A
 * take waits in short polls and checks the statement's cancellation between them; {@link #close}
 * stops the workers (a worker waiting to put gives up, one reading stops at its next check) and
 * waits for them, so that no file stays open after the scan.
 *
 * @param <T> what a worker hands over (rows, batches, a piece's aggregation, a failure)
 */
final class ScanWorkers<T> implements AutoCloseable {
  /** What a worker does with one piece. */
  interface Work<T> {
    /**
     * Reads piece {@code piece}, handing what it reads to {@code out}; returns false when the
     * worker should read no further piece (it stopped, or it handed over a failure).
     */
    boolean read(int piece, Output<T> out);
  }

  /** Where a worker puts what it read. */
  static final class Output<T> {
    private final BlockingQueue<T> queue;
    private final AtomicBoolean stopped;

    private Output(BlockingQueue<T> queue, AtomicBoolean stopped) {
      this.queue = queue;
      this.stopped = stopped;
    }

    /**
     * Queues an item, waiting while the queue is full; false when the scan stopped first (the item
     * is dropped).
     */
    boolean put(T item) {
      return Handoff.put(queue, item, stopped);
    }

    /** Whether the scan no longer needs what the worker reads. */
    boolean stopped() {
      return stopped.get();
    }

    /** Throws {@link Stopped} when the scan stopped: a check for a reader's loop. */
    void check() {
      if (stopped.get()) {
        throw new Stopped();
      }
    }
  }

  /** Thrown inside a worker to stop reading once the statement no longer needs its pieces. */
  static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super(null, null, false, false);
    }
  }

  private final List<BlockingQueue<T>> queues = new ArrayList<>();
  private final List<Future<?>> futures = new ArrayList<>();
  private final AtomicBoolean stopped = new AtomicBoolean();

  /**
   * Starts {@code workers} workers (at most one per piece) reading {@code pieces} pieces, each with
   * a queue of {@code queued} items.
   */
  ScanWorkers(int pieces, int workers, int queued, ExecutorService executor, Work<T> work) {
    int count = count(pieces, workers);
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    for (int w = 0; w < count && w < pieces; w++) {
      BlockingQueue<T> queue = new ArrayBlockingQueue<>(queued);
      queues.add(queue);
      Output<T> out = new Output<>(queue, stopped);
      int worker = w;
      futures.add(
          executor.submit(
              () -> {
                Thread thread = Thread.currentThread();
                ClassLoader previous = thread.getContextClassLoader();
                thread.setContextClassLoader(loader);
                try {
                  for (int p = worker; p < pieces && !stopped.get(); p += count) {
                    if (!work.read(p, out)) {
                      return;
                    }
                  }
                } catch (Stopped e) {
                  // the scan no longer needs the rest
                } finally {
                  thread.setContextClassLoader(previous);
                }
              }));
    }
  }

  /**
   * How many workers read {@code pieces} pieces when {@code workers} are asked for: worker {@code
   * w} reads pieces {@code w, w+count, ...}.
   */
  static int count(int pieces, int workers) {
    return Math.max(1, Math.min(workers, pieces));
  }

  /**
   * The next item of piece {@code piece}, waiting for its worker; throws 57014 when the statement
   * is cancelled (or its thread interrupted) while it waits.
   */
  T take(int piece, LakeScan.CancelCheck cancel) {
    BlockingQueue<T> queue = queues.get(piece % queues.size());
    try {
      while (true) {
        T next = queue.poll(100, TimeUnit.MILLISECONDS);
        if (next != null) {
          return next;
        }
        cancel.check();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw FloeError.CANCELLED.error("the reading thread was interrupted");
    }
  }

  /** Whether the workers were told to stop. */
  boolean stopped() {
    return stopped.get();
  }

  /** Stops the workers and waits for them (up to 30 s each), so that no file stays open. */
  @Override
  public void close() {
    if (stopped.compareAndSet(false, true)) {
      for (BlockingQueue<T> queue : queues) {
        queue.clear();
      }
      for (Future<?> future : futures) {
        try {
          future.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
          // A worker that failed has reported through its queue.
        }
      }
    }
  }
}
