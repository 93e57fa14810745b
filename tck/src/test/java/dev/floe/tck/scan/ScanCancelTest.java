package dev.floe.tck.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Statement.cancel()} and {@code setQueryTimeout} stop a scan that is being read and close
 * the Parquet files it opened, before the statement or result set is closed. Open files are counted
 * through {@code /proc/self/fd}, so the kit checks this on Linux.
 */
class ScanCancelTest {
  private static final long ROWS = 320_000;

  @TempDir static Path temp;

  private static Path data;

  @BeforeAll
  static void writeATableOfSeveralFiles() throws Exception {
    assumeThat(Path.of("/proc/self/fd")).isDirectory();
    // Files above Iceberg's eager-fetch threshold (1 MiB), so they stay open while being read.
    BigTable.write(temp.resolve("lake").resolve("big"), ROWS, 4);
    data = temp.resolve("lake").resolve("big").resolve("data").toRealPath();
  }

  private static Connection connect(String scanThreads) throws SQLException {
    String url = "jdbc:floe:" + temp.resolve("lake");
    return DriverManager.getConnection(
        scanThreads.equals("default") ? url : url + "?scanThreads=" + scanThreads);
  }

  @ParameterizedTest(name = "scanThreads={0}")
  @ValueSource(strings = {"default", "1"})
  void cancelStopsARunningScanAndClosesItsFiles(String scanThreads) throws Exception {
    try (Connection c = connect(scanThreads);
        Statement s = c.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT * FROM big");
      for (int i = 0; i < 5_000; i++) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(openDataFiles()).isNotEmpty();
      s.cancel();
      assertThatThrownBy(() -> readToTheEnd(rs))
          .isInstanceOf(SQLException.class)
          .hasFieldOrPropertyWithValue("SQLState", "57014");
      assertThat(openDataFiles()).isEmpty();
    }
  }

  @ParameterizedTest(name = "scanThreads={0}")
  @ValueSource(strings = {"default", "1"})
  void aQueryTimeoutStopsARunningScanAndClosesItsFiles(String scanThreads) throws Exception {
    try (Connection c = connect(scanThreads);
        Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      ResultSet rs = s.executeQuery("SELECT * FROM big");
      for (int i = 0; i < 5_000; i++) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(openDataFiles()).isNotEmpty();
      Thread.sleep(1_100);
      assertThatThrownBy(() -> readToTheEnd(rs))
          .isInstanceOf(SQLTimeoutException.class)
          .hasFieldOrPropertyWithValue("SQLState", "57014");
      assertThat(openDataFiles()).isEmpty();
    }
  }

  @ParameterizedTest(name = "scanThreads={0}")
  @ValueSource(strings = {"default", "1"})
  void aScanReadToTheEndLeavesNoFileOpen(String scanThreads) throws Exception {
    try (Connection c = connect(scanThreads);
        Statement s = c.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT * FROM big");
      assertThat(readToTheEnd(rs)).isEqualTo(ROWS);
      assertThat(openDataFiles()).isEmpty();
    }
  }

  private static long readToTheEnd(ResultSet rs) throws SQLException {
    long rows = 0;
    while (rs.next()) {
      rs.getString(3);
      rows++;
    }
    return rows;
  }

  /** The table's data files this process has open, from the links in /proc/self/fd. */
  private static List<Path> openDataFiles() throws IOException {
    List<Path> open = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          Path target = Files.readSymbolicLink(fd);
          if (target.startsWith(data)) {
            open.add(target);
          }
        } catch (IOException e) {
          // The descriptor was closed while listing (the one of the listing itself, for one).
        }
      }
    }
    return open;
  }
}
