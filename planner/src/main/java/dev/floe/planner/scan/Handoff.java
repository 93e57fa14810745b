package dev.floe.planner.scan;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** How a scan worker hands what it read to the consumer: waiting, but never past a stop. */
final class Handoff {
  private Handoff() {}

  /**
   * Puts an item on a worker's bounded queue, waiting while it is full, until the scan is stopped.
   *
   * @return whether the item was queued (false: the scan stopped, or the worker was interrupted,
   *     which stops it)
   */
  static <T> boolean put(BlockingQueue<T> queue, T item, AtomicBoolean stopped) {
    try {
      while (!stopped.get()) {
        if (queue.offer(item, 50, TimeUnit.MILLISECONDS)) {
          return true;
        }
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped.set(true);
      return false;
    }
  }
}
