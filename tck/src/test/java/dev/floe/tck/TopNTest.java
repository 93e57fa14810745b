package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ORDER BY with LIMIT keeps only its first OFFSET + FETCH rows while it reads (a top-N), instead of
 * sorting every row, when they are at most 131,072 (more are sorted within the budget): the plan
 * says so, and the rows are those of a full sort computed here, over ties, NULLs (first or last),
 * descending keys, offsets within and past the rows, and a fetch of zero.
 */
class TopNTest {
  private static final int ROWS = 5000;

  @TempDir static Path lake;
  private static Connection connection;
  private static final List<Object[]> rows = new ArrayList<>();

  @BeforeAll
  static void fill() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(connection, "CREATE TABLE t (id BIGINT, v INT, s VARCHAR)");
    Random random = new Random(20261207);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
      for (long id = 0; id < ROWS; id++) {
        Integer v = random.nextInt(20) == 0 ? null : random.nextInt(300);
        String s = random.nextInt(15) == 0 ? null : "s" + random.nextInt(1000);
        rows.add(new Object[] {id, v, s});
        insert.setLong(1, id);
        Sql.setOrNull(insert, 2, v, java.sql.Types.INTEGER);
        Sql.setOrNull(insert, 3, s, java.sql.Types.VARCHAR);
        insert.addBatch();
        if (id % 2000 == 1999) {
          insert.executeBatch();
        }
      }
      insert.executeBatch();
    }
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "v DESC NULLS LAST, id; 10; 0",
        "v NULLS FIRST, id DESC; 25; 0",
        "s, id; 7; 100",
        "s DESC NULLS FIRST, v, id; 30; 4990",
        "v, id; 5; 6000",
        "s, v, id; 10; 131062",
        "v DESC, id; 20; 131060",
        "id DESC; 0; 0"
      })
  void theFirstRowsOfTheOrderAreThoseOfAFullSort(String order, int fetch, int offset)
      throws SQLException {
    String sql =
        "SELECT id, v, s FROM t ORDER BY " + order + " LIMIT " + fetch + " OFFSET " + offset;
    if (fetch > 0) {
      // a top-N keeps at most 131,072 rows; a larger LIMIT + OFFSET sorts within the budget
      assertThat(Sql.explain(connection, sql))
          .contains(fetch + offset <= 131_072 ? "EnumerableLimitSort" : "EnumerableSort");
    }
    List<String> expected =
        rows.stream()
            .sorted(comparator(order))
            .skip(offset)
            .limit(fetch)
            .map(r -> r[0] + " " + r[1] + " " + r[2])
            .collect(Collectors.toList());
    assertThat(Sql.lines(connection, sql)).isEqualTo(expected);
  }

  /** The order of an ORDER BY list of this test's columns, as SQL sorts them. */
  private static Comparator<Object[]> comparator(String order) {
    Comparator<Object[]> all = null;
    for (String item : order.split(",")) {
      String[] words = item.trim().split("\\s+");
      int column = List.of("id", "v", "s").indexOf(words[0]);
      boolean descending = item.contains("DESC");
      // NULL sorts as the greatest value unless the item says otherwise
      boolean nullsFirst = item.contains("NULLS FIRST") || (descending && !item.contains("LAST"));
      Comparator<Comparable<Object>> natural = Comparator.naturalOrder();
      Comparator<Comparable<Object>> direction = descending ? natural.reversed() : natural;
      Comparator<Comparable<Object>> withNulls =
          nullsFirst ? Comparator.nullsFirst(direction) : Comparator.nullsLast(direction);
      Comparator<Object[]> one = Comparator.comparing(r -> asComparable(r[column]), withNulls);
      all = all == null ? one : all.thenComparing(one);
    }
    return all;
  }

  @SuppressWarnings("unchecked")
  private static Comparable<Object> asComparable(Object value) {
    return (Comparable<Object>) value;
  }
}
