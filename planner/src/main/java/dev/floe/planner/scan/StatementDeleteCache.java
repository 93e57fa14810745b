package dev.floe.planner.scan;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * Loaded delete files for one statement, so that each delete file is read once however many data
 * files it applies to. Safe for the scan's worker threads; a load runs outside any map lock.
 */
final class StatementDeleteCache {
  private final ConcurrentMap<String, CompletableFuture<Object>> loaded = new ConcurrentHashMap<>();

  @SuppressWarnings("unchecked")
  <V> V getOrLoad(String key, Supplier<V> loader) {
    CompletableFuture<Object> mine = new CompletableFuture<>();
    CompletableFuture<Object> existing = loaded.putIfAbsent(key, mine);
    if (existing != null) {
      return (V) existing.join();
    }
    try {
      V value = loader.get();
      mine.complete(value);
      return value;
    } catch (RuntimeException | Error e) {
      loaded.remove(key, mine);
      mine.completeExceptionally(e);
      throw e;
    }
  }
}
