package dev.floe.tck.write;

import static dev.floe.tck.write.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.SortedSet;
import org.apache.iceberg.DataFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ETL statements (docs/etl.md, "ETL statements") through the shaded driver: a daily load with
 * TRUNCATE, INSERT OVERWRITE and MERGE, each result read back with Iceberg's own reader, every file
 * at {@code <lake>/<table>/data/...}, and nothing left behind by a failing MERGE.
 */
class EtlStatementsTest {
  @TempDir Path lake;

  @Test
  void aDailyLoadScript() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE staging (id INT, name VARCHAR, d DATE)",
          "CREATE TABLE customers (id INT, name VARCHAR, d DATE) PARTITIONED BY (d)",
          "INSERT INTO customers VALUES (1, 'ann', DATE '2024-06-02'), (2, 'bob', DATE '2024-06-02')",
          "INSERT INTO staging VALUES (2, 'bobby', DATE '2024-06-03'), (3, 'cy', DATE '2024-06-03')");
      assertThat(
              Sql.update(
                  c,
                  "MERGE INTO customers t USING staging s ON t.id = s.id"
                      + " WHEN MATCHED AND s.name IS NULL THEN DELETE"
                      + " WHEN MATCHED THEN UPDATE SET name = s.name, d = s.d"
                      + " WHEN NOT MATCHED THEN INSERT *"))
          .isEqualTo(2);
      IcebergView customers = IcebergView.of(lake.resolve("customers"));
      assertThat(customers.rows())
          .containsExactly(
              row(1, "ann", java.time.LocalDate.of(2024, 6, 2)),
              row(2, "bobby", java.time.LocalDate.of(2024, 6, 3)),
              row(3, "cy", java.time.LocalDate.of(2024, 6, 3)));
      for (DataFile file : customers.dataFiles()) {
        assertThat(IcebergView.pathOf(file)).startsWith(lake.resolve("customers").resolve("data"));
      }
      // reload one day idempotently, twice
      for (int i = 0; i < 2; i++) {
        Sql.update(
            c,
            "INSERT OVERWRITE customers PARTITION (d = DATE '2024-06-03')"
                + " SELECT id, upper(name) FROM staging");
      }
      assertThat(IcebergView.of(lake.resolve("customers")).rows())
          .containsExactly(
              row(1, "ann", java.time.LocalDate.of(2024, 6, 2)),
              row(2, "BOBBY", java.time.LocalDate.of(2024, 6, 3)),
              row(3, "CY", java.time.LocalDate.of(2024, 6, 3)));
      Sql.update(c, "TRUNCATE TABLE staging");
      assertThat(IcebergView.of(lake.resolve("staging")).rows()).isEmpty();
      assertThat(IcebergView.of(lake.resolve("staging")).snapshots()).hasSize(2);

      // an ambiguous MERGE writes nothing at all
      Sql.run(
          c, "INSERT INTO staging VALUES (1, 'x', DATE '2024-06-02'), (1, 'y', DATE '2024-06-02')");
      SortedSet<String> before = FolderListing.files(lake.resolve("customers"));
      SQLException failure =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  Sql.update(
                      c,
                      "MERGE INTO customers t USING staging s ON t.id = s.id"
                          + " WHEN MATCHED THEN UPDATE SET name = s.name"));
      assertThat(failure.getSQLState()).isEqualTo("21000");
      assertThat(FolderListing.files(lake.resolve("customers"))).isEqualTo(before);
    }
  }

  @Test
  void aLoadFromRawFilesWithCreateOrReplace(@TempDir Path landing) throws Exception {
    java.nio.file.Files.writeString(
        landing.resolve("customers-1.csv"),
        "id,name,deleted,d\n1,ann,false,2024-06-03\n2,bob,true,2024-06-03\n");
    java.nio.file.Files.writeString(
        landing.resolve("customers-2.csv"), "id,name,deleted,d\n3,\"cy, jr\",false,2024-06-03\n");
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE customers (id BIGINT NOT NULL, name VARCHAR, d DATE)",
          "INSERT INTO customers VALUES (2, 'bob', DATE '2024-06-02'), (9, 'zed', DATE"
              + " '2024-06-02')",
          "CREATE TABLE staging (legacy INT)",
          "INSERT INTO staging VALUES (42)");
      List<List<Object>> before = Sql.rows(c, "SELECT snapshot_id FROM \"staging$snapshots\"");
      assertThat(before).hasSize(1);
      Object first = before.get(0).get(0);
      assertThat(
              Sql.update(
                  c,
                  "CREATE OR REPLACE TABLE staging AS SELECT * FROM read_csv('"
                      + landing
                      + "/customers-*.csv', columns => 'id BIGINT, name VARCHAR, deleted BOOLEAN,"
                      + " d DATE')"))
          .isEqualTo(3);
      assertThat(IcebergView.of(lake.resolve("staging")).rows())
          .containsExactly(
              row(1L, "ann", false, java.time.LocalDate.of(2024, 6, 3)),
              row(2L, "bob", true, java.time.LocalDate.of(2024, 6, 3)),
              row(3L, "cy, jr", false, java.time.LocalDate.of(2024, 6, 3)));
      // the replaced table's first snapshot still reads its own rows and columns
      assertThat(Sql.rows(c, "SELECT legacy FROM staging FOR VERSION AS OF " + first))
          .containsExactly(row(42));
      Sql.update(
          c,
          "MERGE INTO customers t USING staging s ON t.id = s.id"
              + " WHEN MATCHED AND s.deleted THEN DELETE"
              + " WHEN MATCHED THEN UPDATE SET name = s.name, d = s.d"
              + " WHEN NOT MATCHED AND NOT s.deleted THEN INSERT (id, name, d)"
              + " VALUES (s.id, s.name, s.d)");
      assertThat(IcebergView.of(lake.resolve("customers")).rows())
          .containsExactly(
              row(1L, "ann", java.time.LocalDate.of(2024, 6, 3)),
              row(3L, "cy, jr", java.time.LocalDate.of(2024, 6, 3)),
              row(9L, "zed", java.time.LocalDate.of(2024, 6, 2)));
      // a bad value names its file and line; nothing changes
      java.nio.file.Files.writeString(
          landing.resolve("customers-3.csv"), "id,name,deleted,d\n4,dee,false,2024-06-31\n");
      SQLException bad =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  Sql.update(
                      c,
                      "INSERT INTO customers SELECT id, name, d FROM read_csv('"
                          + landing
                          + "/customers-3.csv', columns => 'id BIGINT, name VARCHAR, deleted"
                          + " BOOLEAN, d DATE')"));
      assertThat(bad.getSQLState()).isEqualTo("22007");
      assertThat(bad.getMessage()).contains("customers-3.csv line 2");
      assertThat(IcebergView.of(lake.resolve("customers")).rows()).hasSize(3);
    }
  }
}
