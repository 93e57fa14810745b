package dev.floe.examples;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one query against a lake with nothing but plain JDBC and prints the result as a table.
 *
 * <pre>java -cp "examples/target/classes:$(cat examples/target/classpath.txt)" \
 *     dev.floe.examples.QueryLake ./sample-lake "SELECT * FROM customers LIMIT 5"</pre>
 */
public final class QueryLake {
  private QueryLake() {}

  /** Arguments: a lake folder (or a full {@code jdbc:floe:} URL) and one SQL query. */
  public static void main(String[] args) throws SQLException {
    if (args.length != 2) {
      System.err.println("usage: QueryLake <lake folder or jdbc:floe: URL> <SQL query>");
      System.exit(1);
    }
    System.out.print(query(args[0], args[1]));
  }

  /** Runs {@code sql} on the lake and returns its rows as aligned text. */
  static String query(String lake, String sql) throws SQLException {
    String url = lake.startsWith("jdbc:") ? lake : "jdbc:floe:" + lake;
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      return format(rows);
    }
  }

  /** Formats every row of a result set as a table with a header line. */
  static String format(ResultSet rows) throws SQLException {
    ResultSetMetaData meta = rows.getMetaData();
    int columns = meta.getColumnCount();
    List<String[]> lines = new ArrayList<>();
    String[] header = new String[columns];
    for (int i = 0; i < columns; i++) {
      header[i] = meta.getColumnLabel(i + 1);
    }
    lines.add(header);
    while (rows.next()) {
      String[] line = new String[columns];
      for (int i = 0; i < columns; i++) {
        Object value = rows.getObject(i + 1);
        line[i] = value == null ? "NULL" : value.toString();
      }
      lines.add(line);
    }
    int[] widths = new int[columns];
    for (String[] line : lines) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], line[i].length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (int n = 0; n < lines.size(); n++) {
      appendLine(text, lines.get(n), widths);
      if (n == 0) {
        String[] rule = new String[columns];
        for (int i = 0; i < columns; i++) {
          rule[i] = "-".repeat(widths[i]);
        }
        appendLine(text, rule, widths);
      }
    }
    int count = lines.size() - 1;
    text.append('(').append(count).append(count == 1 ? " row)" : " rows)").append('\n');
    return text.toString();
  }

  private static void appendLine(StringBuilder text, String[] cells, int[] widths) {
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        text.append(" | ");
      }
      text.append(cells[i]).append(" ".repeat(widths[i] - cells[i].length()));
    }
    text.setLength(trimmedLength(text));
    text.append('\n');
  }

  private static int trimmedLength(StringBuilder text) {
    int end = text.length();
    while (end > 0 && text.charAt(end - 1) == ' ') {
      end--;
    }
    return end;
  }
}
