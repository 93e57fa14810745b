package dev.floe.planner.parser.ddl;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code ALTER TABLE name} changing how its files are laid out, in Spark's syntax: {@code ADD
 * PARTITION FIELD field [AS name]}, {@code DROP PARTITION FIELD field}, {@code REPLACE PARTITION
 * FIELD field WITH field [AS name]} (partition evolution), and {@code WRITE [DISTRIBUTED BY
 * PARTITION] [LOCALLY] ORDERED BY field [ASC | DESC] [NULLS FIRST | LAST], ...} or {@code WRITE
 * UNORDERED} (the sort order).
 */
public final class SqlAlterTableLayout extends FloeStatementNode {
  /** The change. */
  public enum Action {
    ADD_PARTITION_FIELD,
    DROP_PARTITION_FIELD,
    REPLACE_PARTITION_FIELD,
    WRITE_ORDER
  }

  /** One field of a sort order: a column or transform of one, its direction and null order. */
  public record SortField(PartitionField field, boolean descending, @Nullable Boolean nullsFirst) {}

  public final SqlIdentifier name;
  public final Action action;

  /** The partition field added, dropped or replaced; null for WRITE. */
  public final @Nullable PartitionField field;

  /** The field that replaces {@link #field} (REPLACE ... WITH); null otherwise. */
  public final @Nullable PartitionField replacement;

  /** The name given with AS to the new partition field, or null. */
  public final @Nullable SqlIdentifier fieldName;

  /** The new sort order, empty for WRITE UNORDERED. */
  public final List<SortField> order;

  /**
   * The {@code write.distribution-mode} the WRITE clause asks for ({@code range} for ORDERED BY,
   * {@code hash} for DISTRIBUTED BY PARTITION, {@code none} for LOCALLY ORDERED BY and UNORDERED);
   * null for partition changes.
   */
  public final @Nullable String distribution;

  public SqlAlterTableLayout(
      SqlParserPos pos,
      SqlIdentifier name,
      Action action,
      @Nullable PartitionField field,
      @Nullable PartitionField replacement,
      @Nullable SqlIdentifier fieldName,
      List<SortField> order,
      @Nullable String distribution) {
    super("ALTER TABLE", SqlKind.ALTER_TABLE, pos);
    this.name = name;
    this.action = action;
    this.field = field;
    this.replacement = replacement;
    this.fieldName = fieldName;
    this.order = List.copyOf(order);
    this.distribution = distribution;
  }

  @Override
  protected List<SqlNode> parts() {
    List<SqlNode> parts = new ArrayList<>();
    parts.add(name);
    parts.add(fieldName);
    return parts;
  }
}
