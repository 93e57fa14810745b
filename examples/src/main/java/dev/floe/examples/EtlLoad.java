package dev.floe.examples;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;

/**
 * Batch ETL: loads generated rows into a partitioned table through a HikariCP pool, with
 * PreparedStatement batches inside one explicit transaction, so the whole load is one Iceberg
 * commit: readers see none of it until {@code commit()}, then all of it.
 *
 * <pre>java -cp "examples/target/classes:$(cat examples/target/classpath.txt)" \
 *     dev.floe.examples.EtlLoad ./etl-lake 1000000 10000</pre>
 */
public final class EtlLoad {
  private static final String[] KINDS = {"view", "cart", "purchase", "refund"};
  private static final LocalDate FIRST_DAY = LocalDate.of(2024, 1, 1);

  private EtlLoad() {}

  /** What a load did. */
  record Result(long loaded, long firstId, long tableRows, long millis) {}

  /**
   * Arguments: the lake folder, the number of rows (default 1,000,000), the batch size (default
   * 10,000).
   */
  public static void main(String[] args) throws SQLException {
    if (args.length < 1 || args.length > 3) {
      System.err.println(
          "usage: EtlLoad <lake folder> [rows, default 1000000] [batch size, default 10000]");
      System.exit(1);
    }
    long rows = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000L;
    int batchSize = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    Result result = load(args[0], rows, batchSize);
    System.out.printf(
        "loaded %,d rows into events in one commit in %.1f s (%,.0f rows/s); the table now has %,d"
            + " rows%n",
        result.loaded(),
        result.millis() / 1000.0,
        result.loaded() * 1000.0 / Math.max(1, result.millis()),
        result.tableRows());
  }

  /** Appends {@code rows} generated events to table {@code events} of the lake, in one commit. */
  static Result load(String lake, long rows, int batchSize) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setPoolName("floe-etl");
    config.setJdbcUrl("jdbc:floe:" + lake + "?create=true");
    config.setMaximumPoolSize(2);
    long start = System.nanoTime();
    try (HikariDataSource pool = new HikariDataSource(config);
        Connection connection = pool.getConnection()) {
      long firstId = prepareTable(connection);
      connection.setAutoCommit(false); // one transaction: every batch below, then one commit
      try (PreparedStatement insert =
          connection.prepareStatement(
              "INSERT INTO events (id, event_date, customer_id, kind, amount)"
                  + " VALUES (?, ?, ?, ?, ?)")) {
        for (long i = 0; i < rows; i++) {
          long id = firstId + i;
          insert.setLong(1, id);
          // Rows arrive in time order, as from a log: each batch touches one or two months.
          insert.setObject(2, FIRST_DAY.plusDays(i * 366 / Math.max(rows, 1)));
          insert.setLong(3, id * 7919 % 10_000 + 1);
          insert.setString(4, KINDS[(int) (id % KINDS.length)]);
          insert.setBigDecimal(5, BigDecimal.valueOf(id * 37 % 100_000, 2));
          insert.addBatch();
          if ((i + 1) % batchSize == 0) {
            insert.executeBatch(); // writes data files; nothing is visible yet
          }
        }
        insert.executeBatch();
        connection.commit(); // one snapshot for the whole load
      } catch (SQLException | RuntimeException e) {
        try {
          connection.rollback(); // discards the pending snapshot and deletes its files
        } catch (SQLException rollbackFailure) {
          e.addSuppressed(rollbackFailure);
        }
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
      long tableRows;
      try (Statement statement = connection.createStatement();
          ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM events")) {
        count.next();
        tableRows = count.getLong(1);
      }
      return new Result(rows, firstId, tableRows, (System.nanoTime() - start) / 1_000_000);
    }
  }

  /**
   * Creates the table on first use and returns the first free id, so that loads can be repeated.
   */
  private static long prepareTable(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS events ("
              + " id BIGINT NOT NULL,"
              + " event_date DATE NOT NULL,"
              + " customer_id BIGINT NOT NULL,"
              + " kind VARCHAR NOT NULL,"
              + " amount DECIMAL(12, 2))"
              + " PARTITIONED BY (month(event_date))");
      try (ResultSet max = statement.executeQuery("SELECT MAX(id) FROM events")) {
        max.next();
        return max.getLong(1) + 1;
      }
    }
  }
}
