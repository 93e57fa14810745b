package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition values of {@code t$partitions} and {@code t$files} read as they mean, as Trino
 * shows them: a month is {@code 2024-01}, not the {@code 648} months since 1970 Iceberg stores;
 * they are the values Iceberg writes in the data files' folder names.
 */
class PartitionValuesTest {
  @TempDir static Path root;

  @BeforeAll
  static void createTables() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE m (id INT, d DATE) PARTITIONED BY (month(d))");
      s.execute(
          "INSERT INTO m VALUES (1, DATE '2024-01-05'), (2, DATE '2024-01-20'),"
              + " (3, DATE '1969-12-31'), (4, NULL)");
      s.execute(
          "CREATE TABLE h (id INT, ts TIMESTAMP, at TIMESTAMP, k VARCHAR) PARTITIONED BY"
              + " (year(ts), hour(at), bucket(4, id), truncate(2, k))");
      s.execute(
          "INSERT INTO h VALUES (7, TIMESTAMP '2024-03-05 10:15:00', TIMESTAMP '1969-12-31"
              + " 23:59:59', 'abc')");
      s.execute("CREATE TABLE d (id INT, d DATE) PARTITIONED BY (day(d), identity(id))");
      s.execute("INSERT INTO d VALUES (9, DATE '2024-02-29')");
    }
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  @Test
  void aMonthPartitionIsShownAsItsMonth() throws SQLException {
    try (Connection c = connect()) {
      assertThat(
              Sql.lines(
                  c, "SELECT partition, record_count FROM \"m$partitions\" ORDER BY record_count"))
          .containsExactlyInAnyOrder("{1969-12} 1", "{null} 1", "{2024-01} 2");
      assertThat(
              Sql.lines(
                  c,
                  "SELECT p.partition.d_month, p.record_count FROM \"m$partitions\" p WHERE"
                      + " p.partition.d_month >= '2024-01'"))
          .as("the shown value is the value a query compares")
          .containsExactly("2024-01 2");
    }
  }

  @Test
  void yearsHoursBucketsAndTruncatedValuesReadAsIcebergWritesTheirFolders() throws SQLException {
    try (Connection c = connect()) {
      assertThat(Sql.lines(c, "SELECT partition FROM \"h$partitions\""))
          .containsExactly("{2024, 1969-12-31-23, " + bucket() + ", ab}");
      for (String line : Sql.lines(c, "SELECT partition, file_path FROM \"h$files\"")) {
        assertThat(line)
            .contains("ts_year=2024/")
            .contains("at_hour=1969-12-31-23/")
            .contains("k_trunc=ab/");
      }
    }
  }

  @Test
  void daysAndIdentityPartitionsKeepTheirTypes() throws SQLException {
    try (Connection c = connect()) {
      assertThat(Sql.lines(c, "SELECT partition FROM \"d$partitions\""))
          .containsExactly("{2024-02-29, 9}");
    }
  }

  /** The bucket of 7 among 4, as Iceberg's own transform computes it (the reference). */
  private static int bucket() {
    org.apache.iceberg.transforms.Transform<Integer, Integer> bucket =
        org.apache.iceberg.transforms.Transforms.bucket(4);
    return bucket.bind(org.apache.iceberg.types.Types.IntegerType.get()).apply(7);
  }
}
