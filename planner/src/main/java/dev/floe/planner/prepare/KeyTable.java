package dev.floe.planner.prepare;

import java.util.AbstractCollection;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A hash join's table from key to what the build side holds for it, with {@link HashMap}'s meaning
 * ({@code equals} of the keys) but, while every key is an {@code Integer} or every key a {@code
 * Long} (a join on one integer column), held as primitive longs in open addressing: no entry
 * object, no boxed key hashed and compared through its methods. The first key of another class
 * moves the entries to a {@link HashMap}, which holds every key from then on. A lookup of a key of
 * the other integer class finds nothing, as in a {@link HashMap} ({@code Integer.equals(Long)} is
 * false). Values are never null. Not thread-safe.
 */
final class KeyTable {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  /** Integer.class or Long.class while keys are held as longs; null before the first key. */
  private @Nullable Class<?> kind;

  private long[] keys;
  private Object[] values;
  private int mask;
  private int shift;
  private int size;

  /** Every key, once one was neither of {@link #kind}; null until then. */
  private @Nullable Map<Object, Object> map;

  KeyTable() {
    allocate(16);
  }

  private void allocate(int capacity) {
    keys = new long[capacity];
    values = new Object[capacity];
    mask = capacity - 1;
    shift = 64 - Integer.numberOfTrailingZeros(capacity);
  }

  private int slot(long key) {
    return (int) ((key * GOLDEN) >>> shift);
  }

  /** Whether {@code key} can be held as a long: of the table's class (the first key sets it). */
  private boolean primitive(Object key) {
    if (map != null) {
      return false;
    }
    Class<?> type = key.getClass();
    if (kind == null && size == 0 && (type == Long.class || type == Integer.class)) {
      kind = type;
    }
    if (type == kind) {
      return true;
    }
    toMap();
    return false;
  }

  private void toMap() {
    Map<Object, Object> moved = new HashMap<>(Math.max(16, size * 2));
    forEach(moved::put);
    map = moved;
    keys = new long[0];
    values = new Object[0];
    size = 0;
  }

  /** The value of {@code key}, or null. */
  @Nullable Object get(Object key) {
    if (map != null) {
      return map.get(key);
    }
    if (key.getClass() != kind) {
      return null;
    }
    long k = ((Number) key).longValue();
    for (int s = slot(k); ; s = (s + 1) & mask) {
      Object value = values[s];
      if (value == null) {
        return null;
      }
      if (keys[s] == k) {
        return value;
      }
    }
  }

  /** Puts {@code value} for {@code key} unless it has one; the value it had, or null. */
  @Nullable Object putIfAbsent(Object key, Object value) {
    if (!primitive(key)) {
      return map.putIfAbsent(key, value);
    }
    long k = ((Number) key).longValue();
    int s = slot(k);
    for (; values[s] != null; s = (s + 1) & mask) {
      if (keys[s] == k) {
        return values[s];
      }
    }
    keys[s] = k;
    values[s] = value;
    if (++size * 2 > values.length) {
      grow();
    }
    return null;
  }

  /** Sets the value of a key the table holds. */
  void replace(Object key, Object value) {
    if (map != null) {
      map.put(key, value);
      return;
    }
    long k = ((Number) key).longValue();
    for (int s = slot(k); values[s] != null; s = (s + 1) & mask) {
      if (keys[s] == k) {
        values[s] = value;
        return;
      }
    }
    throw new IllegalStateException("no entry for " + key);
  }

  private void grow() {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    allocate(oldValues.length * 2);
    for (int i = 0; i < oldValues.length; i++) {
      if (oldValues[i] != null) {
        int s = slot(oldKeys[i]);
        while (values[s] != null) {
          s = (s + 1) & mask;
        }
        keys[s] = oldKeys[i];
        values[s] = oldValues[i];
      }
    }
  }

  int size() {
    return map != null ? map.size() : size;
  }

  private Object boxed(long key) {
    return kind == Integer.class ? (Object) (int) key : (Object) key;
  }

  /** Calls {@code action} with each key and its value. */
  void forEach(BiConsumer<Object, Object> action) {
    if (map != null) {
      map.forEach(action);
      return;
    }
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        action.accept(boxed(keys[i]), values[i]);
      }
    }
  }

  /** The values, in the table's order. */
  Collection<Object> values() {
    if (map != null) {
      return map.values();
    }
    return new AbstractCollection<>() {
      @Override
      public Iterator<Object> iterator() {
        return new Slots<>(false);
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  /** The keys, as a set whose {@code contains} is {@link #get} finding a value. */
  Set<Object> keySet() {
    if (map != null) {
      return map.keySet();
    }
    return new AbstractSet<>() {
      @Override
      public Iterator<Object> iterator() {
        return new Slots<>(true);
      }

      @Override
      public boolean contains(Object o) {
        return o != null && get(o) != null;
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  /** Walks the occupied slots: their keys (boxed) or their values. */
  private final class Slots<T> implements Iterator<T> {
    private final boolean giveKeys;
    private final long[] heldKeys = keys;
    private final Object[] heldValues = values;
    private int next;

    Slots(boolean giveKeys) {
      this.giveKeys = giveKeys;
      advance();
    }

    private void advance() {
      while (next < heldValues.length && heldValues[next] == null) {
        next++;
      }
    }

    @Override
    public boolean hasNext() {
      return next < heldValues.length;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T next() {
      if (next >= heldValues.length) {
        throw new NoSuchElementException();
      }
      T item = (T) (giveKeys ? boxed(heldKeys[next]) : heldValues[next]);
      next++;
      advance();
      return item;
    }
  }
}
