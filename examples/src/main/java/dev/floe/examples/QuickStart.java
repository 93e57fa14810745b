package dev.floe.examples;

import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Quick start from Java: open a folder as a database, create a partitioned Iceberg table, insert
 * rows and query them back.
 *
 * <pre>./mvnw -q -pl examples -am package -DskipTests
 * java -cp "examples/target/classes:$(cat examples/target/classpath.txt)" \
 *     dev.floe.examples.QuickStart ./quickstart-lake</pre>
 */
public final class QuickStart {
  private QuickStart() {}

  /**
   * Runs the quick start on the folder named by the first argument (default {@code
   * ./quickstart-lake}).
   */
  public static void main(String[] args) throws SQLException {
    run(args.length > 0 ? args[0] : "quickstart-lake", System.out);
  }

  /** Creates table {@code cities} in {@code lake}, fills it and prints a query's rows. */
  static void run(String lake, PrintStream out) throws SQLException {
    // The folder is the database; create=true makes it on first use.
    String url = "jdbc:floe:" + lake + "?create=true";
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      // DDL commits at once. The table is the folder <lake>/cities, in Iceberg's own layout.
      statement.execute("DROP TABLE IF EXISTS cities");
      statement.execute(
          "CREATE TABLE cities ("
              + " id BIGINT NOT NULL,"
              + " name VARCHAR NOT NULL,"
              + " country VARCHAR NOT NULL,"
              + " population BIGINT,"
              + " founded DATE)"
              + " PARTITIONED BY (country)"
              + " WITH ('format-version' = '2')");
      out.println(
          "created table cities in " + Path.of(lake, "cities").toAbsolutePath().normalize());

      // In auto-commit mode each INSERT is one Iceberg commit (one snapshot).
      int inserted =
          statement.executeUpdate(
              "INSERT INTO cities VALUES"
                  + " (1, 'Paris', 'FR', 2102650, DATE '0052-01-01'),"
                  + " (2, 'Lyon', 'FR', 522250, DATE '0043-10-01'),"
                  + " (3, 'Berlin', 'DE', 3596999, DATE '1237-10-28'),"
                  + " (4, 'Hamburg', 'DE', 1862565, NULL),"
                  + " (5, 'Lisbon', 'PT', 545796, NULL)");
      out.println("inserted " + inserted + " rows");

      // The filter on the partition column lets Iceberg skip every other country's files.
      try (PreparedStatement query =
          connection.prepareStatement(
              "SELECT name, population, founded FROM cities"
                  + " WHERE country = ? ORDER BY population DESC")) {
        query.setString(1, "FR");
        try (ResultSet rows = query.executeQuery()) {
          while (rows.next()) {
            out.printf(
                "%-8s %,10d  founded %s%n",
                rows.getString("name"), rows.getLong("population"), rows.getDate("founded"));
          }
        }
      }
    }
  }
}
