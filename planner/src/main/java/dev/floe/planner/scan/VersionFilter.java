package dev.floe.planner.scan;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionVisitors;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.expressions.NamedReference;
import org.apache.iceberg.expressions.UnboundPredicate;
import org.apache.iceberg.types.Types;

/**
 * The pushed filter of a scan reading the table's current snapshot by its id with the schema that
 * snapshot was written with, after a column was renamed (or dropped and added again under its
 * name): Iceberg binds the filter to the partition specs, which for the current snapshot hold the
 * current schema, while the rows read have the earlier one (for an older snapshot, Iceberg binds
 * the specs to the schema read). The filter goes to Iceberg in the names of the specs' schema (each
 * column found by its field id), and each task's residual comes back in the names of the rows. A
 * filter on a column that schema lacks cannot prune files: such a scan plans every file and keeps
 * the whole filter as each task's residual.
 */
final class VersionFilter {
  private VersionFilter() {}

  /** Whether a scan reading {@code version} must speak to Iceberg in the names of {@code specs}. */
  static boolean renames(Schema version, Schema specs) {
    return version.schemaId() != specs.schemaId() || !version.asStruct().equals(specs.asStruct());
  }

  /**
   * The filter with each column named as in {@code to}, found by its field id in {@code from}; null
   * when it names a column {@code to} does not have, or is not made of plain column references.
   */
  static Expression rename(Expression filter, Schema from, Schema to) {
    try {
      return ExpressionVisitors.visit(filter, new Renamer(from, to));
    } catch (IllegalArgumentException cannot) {
      return null;
    }
  }

  /** The planned tasks of a version, each with its residual in the version's names. */
  static List<FileScanTask> residualsIn(
      List<FileScanTask> tasks, Schema version, Schema current, Expression whole, boolean pruned) {
    List<FileScanTask> result = new ArrayList<>(tasks.size());
    for (FileScanTask task : tasks) {
      Expression residual = pruned ? rename(task.residual(), current, version) : null;
      result.add(new Task(task, residual == null ? whole : residual));
    }
    return result;
  }

  /** Renames the references of an unbound filter. */
  private static final class Renamer extends ExpressionVisitors.ExpressionVisitor<Expression> {
    private final Schema from;
    private final Schema to;

    Renamer(Schema from, Schema to) {
      this.from = from;
      this.to = to;
    }

    @Override
    public Expression alwaysTrue() {
      return Expressions.alwaysTrue();
    }

    @Override
    public Expression alwaysFalse() {
      return Expressions.alwaysFalse();
    }

    @Override
    public Expression not(Expression result) {
      return Expressions.not(result);
    }

    @Override
    public Expression and(Expression left, Expression right) {
      return Expressions.and(left, right);
    }

    @Override
    public Expression or(Expression left, Expression right) {
      return Expressions.or(left, right);
    }

    @Override
    public <T> Expression predicate(BoundPredicate<T> pred) {
      throw new IllegalArgumentException("a bound predicate: " + pred);
    }

    @Override
    public <T> Expression predicate(UnboundPredicate<T> pred) {
      if (!(pred.term() instanceof NamedReference)) {
        throw new IllegalArgumentException("not a column: " + pred.term());
      }
      Types.NestedField field = from.findField(pred.ref().name());
      Types.NestedField renamed = field == null ? null : to.findField(field.fieldId());
      if (renamed == null) {
        throw new IllegalArgumentException("no column " + pred.ref().name());
      }
      String name = to.findColumnName(renamed.fieldId());
      switch (pred.op()) {
        case IS_NULL:
        case NOT_NULL:
        case IS_NAN:
        case NOT_NAN:
          return Expressions.predicate(pred.op(), name);
        case IN:
        case NOT_IN:
          {
            List<T> values = new ArrayList<>();
            for (Literal<T> literal : pred.literals()) {
              values.add(literal.value());
            }
            return Expressions.predicate(pred.op(), name, values);
          }
        default:
          return Expressions.predicate(pred.op(), name, pred.literal());
      }
    }
  }

  /** A task of the version with its residual in the version's names. */
  private static final class Task implements FileScanTask {
    private static final long serialVersionUID = 1L;

    private final FileScanTask task;
    private final Expression residual;

    Task(FileScanTask task, Expression residual) {
      this.task = task;
      this.residual = residual;
    }

    @Override
    public DataFile file() {
      return task.file();
    }

    @Override
    public List<DeleteFile> deletes() {
      return task.deletes();
    }

    @Override
    public PartitionSpec spec() {
      return task.spec();
    }

    @Override
    public StructLike partition() {
      return task.partition();
    }

    @Override
    public Schema schema() {
      return task.schema();
    }

    @Override
    public long start() {
      return task.start();
    }

    @Override
    public long length() {
      return task.length();
    }

    @Override
    public long sizeBytes() {
      return task.sizeBytes();
    }

    @Override
    public long estimatedRowsCount() {
      return task.estimatedRowsCount();
    }

    @Override
    public Expression residual() {
      return residual;
    }

    @Override
    public Iterable<FileScanTask> split(long splitSize) {
      List<FileScanTask> parts = new ArrayList<>();
      for (FileScanTask part : task.split(splitSize)) {
        parts.add(new Task(part, residual));
      }
      return parts;
    }
  }
}
