package dev.floe.examples;

import static dev.floe.examples.LakeFiles.assertTableLaidOut;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuickStartTest {
  @TempDir Path temp;

  @Test
  void createsTheLakeAndTableThenPrintsTheFrenchCitiesByPopulation() throws Exception {
    Path lake = temp.resolve("my lake"); // a space, as in many home folders

    String output = run(lake);

    assertThat(output)
        .contains("created table cities in " + lake.resolve("cities").toAbsolutePath().normalize())
        .contains("inserted 5 rows");
    assertThat(output.lines().filter(line -> line.contains("founded")))
        .containsExactly(
            "Paris     2,102,650  founded 0052-01-01", "Lyon        522,250  founded 0043-10-01");
    assertTableLaidOut(lake, "cities", temp);
  }

  @Test
  void runningItAgainStartsTheTableAfresh() throws Exception {
    Path lake = temp.resolve("lake");
    run(lake);

    run(lake);

    assertTableLaidOut(lake, "cities", temp);
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement();
        ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM cities")) {
      count.next();
      assertThat(count.getLong(1)).isEqualTo(5);
    }
    assertThat(LakeFiles.currentMetadata(lake, "cities").snapshots()).hasSize(1);
  }

  private static String run(Path lake) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      QuickStart.run(lake.toString(), out);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
