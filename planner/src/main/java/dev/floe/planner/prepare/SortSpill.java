package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.MemoryBudget;
import dev.floe.planner.session.Sizes;
import dev.floe.planner.session.SpillFiles;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.Function1;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A full sort (ORDER BY without LIMIT or OFFSET) within the statement's memory budget: rows are
 * held, each reserved in the budget, until they pass the sort's share (half of what the budget had
 * free when the sort started, as a hash join's build side takes) or the budget refuses them; then
 * the held rows are sorted and written as one sorted run to a {@code floe-sort-*} folder under
 * {@code java.io.tmpdir} in {@link SpillFiles}'s encoding, and their memory given back. At the end
 * the runs are merged, {@value #FAN_IN} at a time, holding one row per run. Rows that compare equal
 * keep the order they came in, in memory and across runs, as Calcite's own sort does. The folder is
 * deleted when the rows are read to the end, closed, failed or cancelled; a row holding a value the
 * encoding cannot write fails with 53200, as a sort that could not spill did before.
 */
final class SortSpill<T, K> extends AbstractEnumerable<T> {
  /** The most runs merged at once: one open file and one row each. */
  static final int FAN_IN = 64;

  private static final int CHECK_EVERY = 256;

  private final Enumerable<T> input;
  private final Function1<T, K> key;
  private final Comparator<K> order;
  private final Cancellation statement;
  private final @Nullable AtomicBoolean flag;

  @SuppressWarnings("unchecked")
  SortSpill(
      Enumerable<T> input,
      Function1<T, K> key,
      @Nullable Comparator<K> order,
      Cancellation statement,
      @Nullable AtomicBoolean flag) {
    this.input = input;
    this.key = key;
    this.order = order != null ? order : (a, b) -> ((Comparable<Object>) a).compareTo((Object) b);
    this.statement = statement;
    this.flag = flag;
  }

  @Override
  public Enumerator<T> enumerator() {
    return new Sorting();
  }

  /** A row and its sort key, computed once. */
  private record Keyed<T, K>(K key, T row) {}

  /** One sorted run on disk. */
  private record Run(SpillFiles.Partitions file, long rows) {}

  /** One execution of the sort: reads all its input at the first row asked for. */
  private final class Sorting implements Enumerator<T> {
    private final MemoryBudget memory = statement.memory();
    private final SpillFiles.Folder folder =
        new SpillFiles.Folder("floe-sort-", memory, "the sort");
    private final Comparator<Keyed<T, K>> byKey = (a, b) -> order.compare(a.key, b.key);
    private List<Keyed<T, K>> held = new ArrayList<>();
    private final List<Run> runs = new ArrayList<>();
    private long share;
    private long reserved;
    private long pending;
    private long rowsRead;
    private long lastRowSize;
    private int steps;
    private @Nullable Enumerator<T> sorted;
    private boolean closed;

    @Override
    public T current() {
      return sorted.current();
    }

    @Override
    public boolean moveNext() {
      if (closed) {
        return false;
      }
      try {
        if (sorted == null) {
          sorted = sort();
        }
        if (sorted.moveNext()) {
          return true;
        }
      } catch (SpillFiles.NotSpillable e) {
        close();
        throw FloeError.OUT_OF_MEMORY.error(
            "the sort needs more than the statement's memory budget of "
                + memory.limitText()
                + " and cannot spill to disk: "
                + e.getMessage()
                + " (connection property memoryBudget; docs/limits.md, \"Known limits\")");
      } catch (RuntimeException | Error e) {
        close();
        throw e;
      }
      close();
      return false;
    }

    /** Reads the whole input; the rows in order, from memory or merged from the runs. */
    private Enumerator<T> sort() {
      check();
      share = memory.share();
      try (Enumerator<T> rows = input.enumerator()) {
        while (rows.moveNext()) {
          T row = rows.current();
          held.add(new Keyed<>(key.apply(row), row));
          pending += size(row);
          if (++steps == CHECK_EVERY) {
            steps = 0;
            check();
            hold();
          }
        }
      }
      hold();
      if (runs.isEmpty()) {
        held.sort(byKey);
        List<Keyed<T, K>> inOrder = held;
        return new Enumerator<T>() {
          private int next = -1;

          @Override
          public T current() {
            return inOrder.get(next).row;
          }

          @Override
          public boolean moveNext() {
            return ++next < inOrder.size();
          }

          @Override
          public void reset() {
            throw new UnsupportedOperationException();
          }

          @Override
          public void close() {}
        };
      }
      spill();
      while (runs.size() > FAN_IN) {
        List<Run> first = new ArrayList<>(runs.subList(0, FAN_IN));
        SpillFiles.Partitions merged = new SpillFiles.Partitions(folder, 1, 0);
        long count = 0;
        try (Enumerator<T> rows = new Merge(first)) {
          while (rows.moveNext()) {
            merged.add(null, rows.current());
            count++;
          }
        }
        merged.finish();
        memory.spilled();
        for (Run run : first) {
          run.file.deleteAll();
        }
        runs.subList(0, FAN_IN).clear();
        runs.add(0, new Run(merged, count));
      }
      return new Merge(new ArrayList<>(runs));
    }

    /** Reserves the rows read since the last time, or writes what is held as a run. */
    private void hold() {
      if (pending == 0) {
        return;
      }
      long bytes = pending;
      pending = 0;
      if (reserved + bytes > share) {
        spill();
        return;
      }
      try {
        memory.reserve(bytes, "the sort holding " + held.size() + " rows");
      } catch (RuntimeException e) {
        spill();
        return;
      }
      reserved += bytes;
    }

    /** Sorts the held rows, writes them as one run and gives back their memory. */
    private void spill() {
      if (held.isEmpty()) {
        return;
      }
      held.sort(byKey);
      SpillFiles.Partitions file = new SpillFiles.Partitions(folder, 1, runs.size());
      try {
        for (Keyed<T, K> row : held) {
          if (++steps == CHECK_EVERY) {
            steps = 0;
            check();
          }
          file.add(null, row.row);
        }
        file.finish();
      } catch (RuntimeException | Error e) {
        file.deleteAll();
        throw e;
      }
      runs.add(new Run(file, held.size()));
      memory.spilled();
      held = new ArrayList<>();
      memory.release(reserved);
      reserved = 0;
      pending = 0;
    }

    /**
     * The estimated size of a held row: measured for the first rows and then for every 16th, the
     * last measure standing for the rows between, plus the row's key and place in the list.
     */
    private long size(T row) {
      if (rowsRead < 1024 || (rowsRead & 15) == 0) {
        lastRowSize = Sizes.of(row) + 48;
      }
      rowsRead++;
      return lastRowSize;
    }

    private void check() {
      WatchPoint.check(statement, flag);
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        if (sorted != null) {
          sorted.close();
        }
      } finally {
        held = new ArrayList<>();
        folder.delete();
        memory.release(reserved);
        reserved = 0;
      }
    }

    /** The rows of sorted runs merged in order; a tie goes to the earlier run. */
    private final class Merge implements Enumerator<T> {
      private final List<Run> runs;
      private final PriorityQueue<Head> heads;
      private @Nullable Head last;
      private boolean opened;

      Merge(List<Run> runs) {
        this.runs = runs;
        this.heads =
            new PriorityQueue<>(
                Math.max(1, runs.size()),
                (a, b) -> {
                  int c = order.compare(a.key, b.key);
                  return c != 0 ? c : Integer.compare(a.run, b.run);
                });
      }

      @Override
      public T current() {
        return last.row;
      }

      @Override
      public boolean moveNext() {
        if (!opened) {
          opened = true;
          for (int i = 0; i < runs.size(); i++) {
            Run run = runs.get(i);
            Head head = new Head(run.file.<T>rows(0).enumerator(), i);
            if (head.advance()) {
              heads.add(head);
            }
          }
        } else if (last != null && last.advance()) {
          heads.add(last);
        }
        if (++steps == CHECK_EVERY) {
          steps = 0;
          check();
        }
        last = heads.poll();
        return last != null;
      }

      @Override
      public void reset() {
        throw new UnsupportedOperationException();
      }

      @Override
      public void close() {
        if (last != null) {
          last.rows.close();
          last = null;
        }
        for (Head head : heads) {
          head.rows.close();
        }
        heads.clear();
      }
    }

    /** A run's next row, read from its file. */
    private final class Head {
      final Enumerator<T> rows;
      final int run;
      K key;
      T row;

      Head(Enumerator<T> rows, int run) {
        this.rows = rows;
        this.run = run;
      }

      /** Reads the run's next row; false (the file closed) at its end. */
      boolean advance() {
        if (!rows.moveNext()) {
          rows.close();
          return false;
        }
        row = rows.current();
        key = SortSpill.this.key.apply(row);
        return true;
      }
    }
  }
}
