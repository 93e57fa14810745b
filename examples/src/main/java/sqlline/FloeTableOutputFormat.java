package sqlline;

import dev.floe.examples.shell.TableText;
import java.util.ArrayList;
import java.util.List;

/**
 * The floe shell's table format: sqlline's layout, but every value printed whole, a value of
 * several lines (EXPLAIN's plan, SHOW CREATE TABLE's statement) as several lines of its cell, and
 * no row cut to the terminal's width (docs/shell.md, "The shell"). In sqlline's package because
 * sqlline hands a format its rows as a class of that package; the layout is {@link TableText}'s.
 */
public final class FloeTableOutputFormat implements OutputFormat {
  private final SqlLine sqlLine;

  /** A format printing through a shell's output. */
  public FloeTableOutputFormat(SqlLine sqlLine) {
    this.sqlLine = sqlLine;
  }

  @Override
  public int print(Rows rows) {
    String[] header = null;
    List<String[]> values = new ArrayList<>();
    while (rows.hasNext()) {
      Rows.Row row = rows.next();
      if (row.isMeta) {
        header = row.values.clone();
      } else {
        values.add(row.values.clone());
      }
    }
    if (header == null) {
      return 0;
    }
    for (String line : TableText.lines(header, values, sqlLine.getOpts().getShowHeader())) {
      sqlLine.output(line);
    }
    return values.size();
  }
}
