package dev.floe.planner.prepare;

import dev.floe.planner.name.ColumnNames;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlNameMatchers;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's case-insensitive name matching, except that a field spelled exactly as a name is that
 * name's field ({@link ColumnNames#exactFirst}): the validator cannot tell a quoted name from an
 * unquoted one, and Floe hands it the target columns of INSERT and UPDATE resolved to their exact
 * names ({@link dev.floe.planner.adapter.SqlNames}), which must reach those columns where case
 * twins exist. A query naming one of a table's case twins is still refused by Calcite as ambiguous
 * (42000), whatever the quoting: it counts the fields matching a name ignoring case.
 */
final class ColumnMatcher implements SqlNameMatcher {
  static final ColumnMatcher INSTANCE = new ColumnMatcher();

  private static final SqlNameMatcher CALCITE = SqlNameMatchers.withCaseSensitive(false);

  private ColumnMatcher() {}

  @Override
  public boolean isCaseSensitive() {
    return CALCITE.isCaseSensitive();
  }

  @Override
  public boolean matches(String string, String name) {
    return CALCITE.matches(string, name);
  }

  @Override
  public <K extends List<String>, V> @Nullable V get(
      Map<K, V> map, List<String> prefixNames, List<String> names) {
    return CALCITE.get(map, prefixNames, names);
  }

  @Override
  public String bestString() {
    return CALCITE.bestString();
  }

  @Override
  public @Nullable RelDataTypeField field(RelDataType rowType, String fieldName) {
    if (rowType.isStruct()) {
      int index = ColumnNames.exactFirst(rowType.getFieldNames(), fieldName);
      if (index >= 0) {
        return rowType.getFieldList().get(index);
      }
    }
    return CALCITE.field(rowType, fieldName);
  }

  @Override
  public int frequency(Iterable<String> names, String name) {
    return CALCITE.frequency(names, name);
  }

  @Override
  public Set<String> createSet() {
    return CALCITE.createSet();
  }
}
