package dev.floe.examples.shell;

import dev.floe.FloeDriver;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import sqlline.Application;
import sqlline.FloeTableOutputFormat;
import sqlline.OutputFormat;
import sqlline.SqlLine;
import sqlline.SqlLineOpts;

/** sqlline's application settings for the floe shell: its greeting, drivers and URL examples. */
public class FloeApplication extends Application {
  /** Creates the settings; sqlline instantiates this class by name ({@code -ac}). */
  public FloeApplication() {}

  @Override
  public String getInfoMessage() {
    return "Floe "
        + FloeDriver.MAJOR_VERSION
        + "."
        + FloeDriver.MINOR_VERSION
        + " shell on "
        + getVersion()
        + ". End SQL with ';'. !tables lists tables, !help the commands, !quit leaves.";
  }

  /** Keeps the options given on the command line (sqlline's default resets them). */
  @Override
  public SqlLineOpts getOpts(SqlLine sqlLine) {
    return sqlLine.getOpts();
  }

  /** sqlline's formats, with a table format that prints every value whole. */
  @Override
  public Map<String, OutputFormat> getOutputFormats(SqlLine sqlLine) {
    Map<String, OutputFormat> formats = new HashMap<>(super.getOutputFormats(sqlLine));
    formats.put("table", new FloeTableOutputFormat(sqlLine));
    return formats;
  }

  @Override
  public List<String> allowedDrivers() {
    return List.of(FloeDriver.class.getName());
  }

  @Override
  public Collection<String> getConnectionUrlExamples() {
    return List.of(
        "jdbc:floe:./sample-lake", "jdbc:floe:/data/lake", "jdbc:floe:file:///data/lake");
  }

  /** The settings for {@code -e} and {@code -f} runs, which print no greeting. */
  public static final class Batch extends FloeApplication {
    /** Creates the settings; sqlline instantiates this class by name ({@code -ac}). */
    public Batch() {}

    @Override
    public String getInfoMessage() {
      return "";
    }
  }
}
