package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arithmetic on a NULL operand is NULL, also when the NULL is hidden from Calcite's simplifier (a
 * negated cast, a CASE that can only be NULL) and the result is multiplied further: such a division
 * once failed planning with an internal error ({@code not a literal}) in Calcite's sort-order
 * derivation. The queries come from SQLite's SQL Logic Test files ({@code random/expr}, {@code
 * random/aggregates}) and their shapes over a table; every expected answer is SQLite's.
 */
class ArithmeticOnNullTest {
  @TempDir static Path lake;
  private static Connection connection;

  @BeforeAll
  static void fillTable() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(connection, "CREATE TABLE t (a INTEGER, b INTEGER)");
    Sql.update(connection, "INSERT INTO t VALUES (1, 0), (3, 4), (NULL, 5)");
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  @Test
  void divisionByANegatedNullMultipliedWithoutATable() throws SQLException {
    assertThat(rows("SELECT 1 / - CAST ( NULL AS INTEGER ) * - 45 + + 73")).containsExactly("null");
  }

  @Test
  void caseThatCanOnlyBeNullDividedAndMultiplied() throws SQLException {
    assertThat(
            rows(
                "SELECT + + 82 * - + 23 + + CASE - - 9 WHEN + + 4 THEN - 5 ELSE NULL END"
                    + " / + 14 * 11 * - - 63"))
        .containsExactly("null");
  }

  @Test
  void columnDividedByANegatedNullMultiplied() throws SQLException {
    assertThat(rows("SELECT a / - CAST(NULL AS INTEGER) * 2 FROM t"))
        .containsExactly("null", "null", "null");
    assertThat(rows("SELECT a, - b / - CAST(NULL AS INTEGER) * a + b FROM t ORDER BY b"))
        .containsExactly("1 null", "3 null", "null null");
  }

  @Test
  void aggregateDividedByANegatedNullMultiplied() throws SQLException {
    assertThat(
            rows("SELECT DISTINCT - COUNT ( * ) / - CAST ( NULL AS INTEGER ) * 58 * - 45 FROM t"))
        .containsExactly("null");
  }

  /** The NULL operand decides, as it did before: the division by the zero in b is not computed. */
  @Test
  void quotientDividedByNullIsNullEvenWhereTheQuotientDividesByZero() throws SQLException {
    assertThat(rows("SELECT (a / b) / CAST(NULL AS INTEGER) * 3 FROM t"))
        .containsExactly("null", "null", "null");
  }

  /** Calcite types ABS(NULL) with the NULL type, which its code generator cannot implement. */
  @Test
  void absoluteValueOfNullIsNull() throws SQLException {
    assertThat(rows("SELECT ABS(NULL)")).containsExactly("null");
    assertThat(rows("SELECT ABS(a) + ABS(NULL), ABS(-b) FROM t ORDER BY b"))
        .containsExactly("null 0", "null 4", "null 5");
    assertThat(rows("SELECT ABS(- CAST(NULL AS INTEGER)) * 2")).containsExactly("null");
  }

  @Test
  void arithmeticWithoutNullKeepsItsValues() throws SQLException {
    assertThat(rows("SELECT a * 2 + b FROM t ORDER BY b")).containsExactly("2", "10", "null");
  }

  private static List<String> rows(String sql) throws SQLException {
    return Sql.lines(connection, sql);
  }
}
