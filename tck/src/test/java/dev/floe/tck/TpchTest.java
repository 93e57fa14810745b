package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.tck.bench.PlanShape;
import dev.floe.tck.bench.Tpch;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries at scale factor 0.01 (86,000 rows, written through Floe's batch INSERT)
 * answer as DuckDB answers them reading the same data files, by the comparison rules of {@link
 * Tpch}. The benchmark ({@code TpchBenchmark}) runs the same queries at larger scale factors.
 */
class TpchTest {
  private static final double SCALE_FACTOR = 0.01;

  /** Seconds one query may take at this scale before it is cancelled and fails. */
  private static final int TIMEOUT = 60;

  @TempDir static Path lake;
  private static Connection floe;
  private static Connection duck;

  @BeforeAll
  static void load() throws SQLException {
    floe = DriverManager.getConnection("jdbc:floe:" + lake);
    duck = DriverManager.getConnection("jdbc:duckdb:");
    Tpch.load(floe, SCALE_FACTOR);
    Tpch.attach(duck, floe);
  }

  @AfterAll
  static void close() throws SQLException {
    floe.close();
    duck.close();
  }

  static List<Integer> queries() {
    return java.util.stream.IntStream.rangeClosed(1, Tpch.QUERIES).boxed().toList();
  }

  @ParameterizedTest(name = "q{0} answers as DuckDB does on the same files")
  @MethodSource("queries")
  void queryAnswersAsDuckDbDoesOnTheSameFiles(int q) throws SQLException {
    String sql = Tpch.query(q, SCALE_FACTOR);
    List<List<Object>> expected;
    List<String> labels;
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      labels = Tpch.labels(rs);
      expected = Tpch.rows(rs);
    }
    List<List<Object>> actual;
    try (Statement s = floe.createStatement()) {
      s.setQueryTimeout(TIMEOUT);
      try (ResultSet rs = s.executeQuery(sql)) {
        actual = Tpch.rows(rs);
      }
    }
    assertThat(expected).as("DuckDB's answer to q%d", q).isNotEmpty();
    assertThat(Tpch.difference(expected, actual, Tpch.orderKeys(sql, labels)))
        .as("q%d against DuckDB", q)
        .isNull();
  }

  @Test
  void answersThatDifferOnlyAmongTiesOfTheOrderByAgreeAndOthersDoNot() {
    String sql =
        "select ps_partkey, sum(x) as value from t group by ps_partkey order by value desc";
    int[] keys = Tpch.orderKeys(sql, List.of("PS_PARTKEY", "VALUE"));
    assertThat(keys).containsExactly(1);
    List<List<Object>> expected = List.of(List.of(7, 30), List.of(3, 20), List.of(5, 20));
    List<List<Object>> tiesSwapped = List.of(List.of(7, 30), List.of(5, 20), List.of(3, 20));
    List<List<Object>> keysOutOfOrder = List.of(List.of(3, 20), List.of(7, 30), List.of(5, 20));
    assertThat(Tpch.difference(expected, tiesSwapped, keys)).isNull();
    assertThat(Tpch.difference(expected, tiesSwapped)).startsWith("same rows, other order");
    assertThat(Tpch.difference(expected, keysOutOfOrder, keys))
        .startsWith("same rows, other order");
    assertThat(Tpch.orderKeys("select a from t order by b limit 3", List.of("A"))).isNull();
    assertThat(Tpch.orderKeys("select a, b from t order by b, a desc limit 3", List.of("A", "B")))
        .containsExactly(1, 0);
  }

  @ParameterizedTest(name = "q{0} joins on keys, by hash, with no subquery run per row")
  @MethodSource("queries")
  void queryPlanJoinsOnKeysByHashWithNoSubqueryRunPerRow(int q) throws SQLException {
    String shape = Tpch.planShape(floe, Tpch.query(q, SCALE_FACTOR));
    // A join without a key is a cross product, unless one side is a single row (an aggregate
    // without GROUP BY: q11's and q22's scalar subqueries), which PlanShape marks otherwise.
    assertThat(shape)
        .as("q%d: %s", q, shape)
        .doesNotContain(PlanShape.NO_KEY)
        .doesNotContain("Correlate")
        .doesNotContain("Merge/");
  }

  /**
   * q17's average quantity per part is grouped by a scan of lineitem on the build side of the join
   * whose probe side holds lineitem joined to the parts of one brand and container. That inner join
   * publishes its part keys when it is opened, and the outer join opens its probe side first: the
   * grouping scan returns a group only for those parts, not for every part lineitem holds.
   */
  @Test
  void q17GroupsLineitemOnlyForThePartsOfItsBrandAndContainer() throws SQLException {
    // q17 with the brand and container of the most parts at this scale (q17's own may hold none)
    String[] most =
        Sql.column(
                floe,
                "SELECT p_brand || '/' || p_container FROM part GROUP BY p_brand, p_container"
                    + " ORDER BY COUNT(*) DESC, p_brand, p_container LIMIT 1")
            .get(0)
            .split("/");
    String brand = most[0];
    String container = most[1];
    String[] counts =
        Sql.lines(
                floe,
                "SELECT COUNT(DISTINCT l_partkey), COUNT(DISTINCT CASE WHEN p_brand = '"
                    + brand
                    + "' AND p_container = '"
                    + container
                    + "' THEN l_partkey END) FROM lineitem JOIN part ON p_partkey = l_partkey")
            .get(0)
            .split(" ");
    long allParts = Long.parseLong(counts[0]);
    long parts = Long.parseLong(counts[1]);
    assertThat(parts).isPositive().isLessThan(allParts / 10);
    String sql =
        Tpch.query(17, SCALE_FACTOR)
            .replace("'Brand#23'", "'" + brand + "'")
            .replace("'MED BOX'", "'" + container + "'");
    String report = String.join("\n", Sql.column(floe, "EXPLAIN ANALYZE " + sql));
    java.util.regex.Matcher scan =
        java.util.regex.Pattern.compile("LakeTableScan lineitem [^\n]*rows returned: (\\d+)")
            .matcher(report);
    List<Long> returned = new java.util.ArrayList<>();
    while (scan.find()) {
      returned.add(Long.parseLong(scan.group(1)));
    }
    // one scan returns the rows of those parts, the other their groups
    assertThat(returned).as(report).hasSize(2).contains(parts);
  }

  @Test
  void q05JoinsCustomerWithSupplierOnlyAfterLineitemAndOrders() throws SQLException {
    String shape = Tpch.planShape(floe, Tpch.query(5, SCALE_FACTOR));
    // The join whose inputs hold customer on one side and supplier on the other holds lineitem and
    // orders too: customer ⋈ supplier on the nation alone multiplies rows (each customer meets
    // every supplier of its nation).
    assertThat(smallestJoinHolding(shape, "customer", "supplier"))
        .as(shape)
        .contains("lineitem")
        .contains("orders");
  }

  /** The innermost join (as text) of a plan shape whose inputs hold both tables. */
  private static String smallestJoinHolding(String shape, String a, String b) {
    String smallest = shape;
    for (int i = 0; i < shape.length(); i++) {
      if (shape.charAt(i) != '(') {
        continue;
      }
      int depth = 0;
      int end = i;
      for (int j = i; j < shape.length(); j++) {
        depth += shape.charAt(j) == '(' ? 1 : shape.charAt(j) == ')' ? -1 : 0;
        if (depth == 0) {
          end = j;
          break;
        }
      }
      String inner = shape.substring(i, end + 1);
      if (inner.contains(a) && inner.contains(b) && inner.length() < smallest.length()) {
        smallest = inner;
      }
    }
    return smallest;
  }
}
