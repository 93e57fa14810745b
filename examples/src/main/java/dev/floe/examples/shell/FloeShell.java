package dev.floe.examples.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import sqlline.BuiltInProperty;
import sqlline.SqlLine;
import sqlline.SqlLineOpts;

/**
 * The {@code floe} shell: sqlline on a Floe lake.
 *
 * <pre>
 * floe                      the sample lake: writes it on first use, runs the demo, then interactive
 * floe LOCATION             a lake folder, file: URI or full jdbc:floe: URL, interactive
 * floe [LOCATION] -e SQL    run SQL (may be given more than once) and exit
 * floe [LOCATION] -f FILE   run a script and exit
 * </pre>
 *
 * Any other argument goes to sqlline as is ({@code --outputFormat=csv}, {@code --force=true}, ...).
 * After each write the shell prints the snapshot it committed; a long write prints its progress.
 * Every {@code -e} statement runs; a script stops at its first error, and SQL piped into standard
 * input runs as a script. Exit status: 0 when every statement succeeded, 1 for bad arguments, 2
 * otherwise.
 */
public final class FloeShell {
  /**
   * System property: where the sample lake lives (the {@code floe} script sets the repository's).
   */
  static final String SAMPLE_LAKE_PROPERTY = "floe.sampleLake";

  /** System property: milliseconds between two progress lines of a long write (default 2000). */
  static final String PROGRESS_PROPERTY = "floe.shell.progressMillis";

  /** Floe has no users: sqlline must not ask for a name and password. */
  private static final String NO_CREDENTIALS = "--connectInteractionMode=notAskCredentials";

  /**
   * NULL shows as {@code NULL} in every column: sqlline's default prints nothing for a NULL string
   * and {@code null} for a NULL number. {@code --nullValue=...} overrides it.
   */
  private static final String NULLS = "NULL";

  /**
   * CSV quotes values with {@code "} as RFC 4180 does, where sqlline's default quote is {@code '}.
   */
  private static final String CSV_QUOTE = "\"";

  /** sqlline's one-dash options, each of which takes a value. */
  private static final java.util.Set<String> SQLLINE_OPTIONS =
      java.util.Set.of("-d", "-ch", "-n", "-p", "-u", "-log", "-nn", "-ac", "-ph", "-c", "-cn");

  private static final String TERMINAL_TYPE = "org.jline.terminal.type";

  private static final String USAGE =
      String.join(
          "\n",
          "usage: floe [LOCATION] [-e SQL]... [-f FILE] [sqlline options]",
          "",
          "  LOCATION   a lake folder, a file: URI or a jdbc:floe: URL;",
          "             default: the sample lake, written on first use, with a short demo",
          "  -e SQL     run SQL and exit (repeatable; all run, exit status 2 if any failed)",
          "  -f FILE    run a SQL script and exit (stops at the first error unless --force=true)",
          "  --name=v   any sqlline option, e.g. --outputFormat=csv, --force=true",
          "",
          "Writes print the snapshot they committed; a long write prints its progress.",
          "Inside the shell: !tables, !describe TABLE, !help, !quit.",
          "");

  private FloeShell() {}

  /** Runs the shell on the terminal and exits with its status. */
  public static void main(String[] args) throws IOException, SQLException {
    if (!List.of(args).contains("--verbose=true")) {
      // sqlline prints whole stack traces for errors in -e and -f statements; keep the messages.
      System.setErr(
          new PrintStream(new StackTraceFilter(System.err), true, StandardCharsets.UTF_8));
    }
    System.exit(run(args, null, System.out, System.err));
  }

  /**
   * Runs the shell; {@code in} null means the terminal. Returns the exit status: 0 when every
   * statement succeeded, 1 for bad arguments, 2 otherwise.
   */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err)
      throws IOException, SQLException {
    Arguments arguments = Arguments.parse(args);
    if (arguments.unknown() != null) {
      err.println("floe: unknown option " + arguments.unknown());
      err.print(USAGE);
      return 1;
    }
    if (arguments.help()) {
      out.print(USAGE);
      return 0;
    }
    String location = arguments.location();
    boolean demo = location == null && !arguments.batch();
    if (location == null) {
      Path sample = Path.of(System.getProperty(SAMPLE_LAKE_PROPERTY, "sample-lake"));
      SampleLake.ensure(sample, err);
      location = sample.toString();
    }
    String url =
        location.regionMatches(true, 0, "jdbc:", 0, 5) ? location : "jdbc:floe:" + location;
    String missing = missingFolder(url, location);
    if (missing != null) {
      err.print(missing);
      return 1;
    }
    long progressMillis = Long.getLong(PROGRESS_PROPERTY, 2000L);
    try (WatchingDriver driver = new WatchingDriver(err, progressMillis).install()) {
      if (demo) {
        int status = runDemo(url, out, err);
        if (status != 0) {
          return status;
        }
      }
      if (in == null && System.console() != null && !arguments.batch()) {
        List<String> sqlline = new ArrayList<>(List.of("-u", url, NO_CREDENTIALS));
        sqlline.add("-ac");
        sqlline.add(FloeApplication.class.getName());
        sqlline.addAll(arguments.sqlline());
        return sqlline(
            sqlline, arguments.emptied(), null, true, out, err); // a person at a terminal
      }
      // -e, -f, or statements from a pipe or a file, which run as a script. The run fails if any
      // statement failed (sqlline alone reports only the last -e statement's outcome).
      Path piped = null;
      try {
        List<String> sqlline = new ArrayList<>(List.of("-u", url, NO_CREDENTIALS));
        sqlline.add("-ac");
        sqlline.add(FloeApplication.Batch.class.getName());
        sqlline.add("--maxWidth=10000"); // no terminal to fit: never cut a row
        sqlline.addAll(arguments.sqlline());
        if (!arguments.batch()) {
          piped = Files.createTempFile("floe-stdin", ".sql");
          try (InputStream input = in == null ? System.in : in) {
            Files.copy(input, piped, StandardCopyOption.REPLACE_EXISTING);
          }
          sqlline.add("-f");
          sqlline.add(piped.toString());
        }
        int status =
            sqlline(sqlline, arguments.emptied(), InputStream.nullInputStream(), false, out, err);
        return status == 0 && driver.failures() > 0 ? 2 : status;
      } finally {
        if (piped != null) {
          Files.deleteIfExists(piped);
        }
      }
    }
  }

  /**
   * What to say when a local lake folder does not exist and the URL does not ask to create it: how
   * to create it; null when there is nothing to say.
   */
  static String missingFolder(String url, String location) {
    if (!url.startsWith("jdbc:floe:") || url.matches("(?is).*[?&]create=true(&.*)?")) {
      return null;
    }
    Path root = WatchingDriver.localRoot(url);
    if (root == null || Files.exists(root)) {
      return null;
    }
    String create = location + (location.contains("?") ? "&" : "?") + "create=true";
    return "floe: "
        + root
        + " does not exist.\n"
        + "To create a new, empty lake there: ./floe '"
        + create
        + "'\n";
  }

  /** Runs the demo script on the sample lake, echoing each statement before its rows. */
  private static int runDemo(String url, PrintStream out, PrintStream err) throws IOException {
    Path script = Files.createTempFile("floe-demo", ".sql");
    try (InputStream demo = FloeShell.class.getResourceAsStream("demo.sql")) {
      Files.writeString(script, new String(demo.readAllBytes(), StandardCharsets.UTF_8));
      out.println("Demo: three queries on the sample lake (" + url + ").");
      return sqlline(
          List.of(
              "-u",
              url,
              NO_CREDENTIALS,
              "-ac",
              FloeApplication.Batch.class.getName(),
              "--maxWidth=10000",
              "-f",
              script.toString()),
          List.of(),
          InputStream.nullInputStream(),
          false,
          out,
          out); // the statements sqlline echoes belong with their rows
    } finally {
      Files.deleteIfExists(script);
    }
  }

  /**
   * Runs sqlline; {@code in} null means the terminal, with line editing and history. Floe's
   * defaults (NULL, CSV's quote) are set first, then the options given empty ({@code --nullValue=},
   * which sqlline's command line refuses), then sqlline reads {@code args}.
   */
  private static int sqlline(
      List<String> args,
      List<String> emptied,
      InputStream in,
      boolean saveHistory,
      PrintStream out,
      PrintStream err)
      throws IOException {
    SqlLine sqlLine = new SqlLine();
    sqlLine.setOutputStream(out);
    sqlLine.setErrorStream(err);
    SqlLineOpts opts = sqlLine.getOpts();
    opts.set(BuiltInProperty.NULL_VALUE, NULLS);
    opts.setCsvQuoteCharacter(CSV_QUOTE);
    for (String name : emptied) {
      if (!opts.setEmptyValue(name, false)) {
        return 1; // sqlline said which options cannot be empty
      }
    }
    String[] argv = args.toArray(String[]::new);
    if (in == null) {
      return sqlLine.begin(argv, null, saveHistory).ordinal();
    }
    // Not a terminal: jline must not send terminal control sequences into the output. It takes the
    // terminal type from this property before $TERM.
    String type = System.getProperty(TERMINAL_TYPE);
    System.setProperty(TERMINAL_TYPE, "dumb");
    try {
      return sqlLine.begin(argv, in, saveHistory).ordinal();
    } finally {
      if (type == null) {
        System.clearProperty(TERMINAL_TYPE);
      } else {
        System.setProperty(TERMINAL_TYPE, type);
      }
    }
  }

  /**
   * The command line, split into Floe's part and sqlline's; {@code unknown} is the first option
   * neither Floe nor sqlline knows (null when there is none).
   */
  record Arguments(
      String location,
      boolean batch,
      boolean help,
      List<String> sqlline,
      List<String> emptied,
      String unknown) {
    static Arguments parse(String[] args) {
      String location = null;
      boolean batch = false;
      boolean help = false;
      String unknown = null;
      List<String> sqlline = new ArrayList<>();
      List<String> emptied = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        if (arg.equals("-h") || arg.equals("--help")) {
          help = true;
        } else if ((arg.equals("-e") || arg.equals("-f")) && i + 1 < args.length) {
          batch = true;
          sqlline.add(arg);
          sqlline.add(args[++i]);
        } else if (arg.startsWith("--")) {
          if (!isSqllineProperty(arg) && unknown == null) {
            unknown = arg;
          }
          if (arg.endsWith("=") && arg.indexOf('=') == arg.length() - 1) {
            emptied.add(arg.substring(2, arg.length() - 1)); // sqlline's command line refuses it
          } else {
            sqlline.add(arg);
          }
        } else if (arg.startsWith("-")) {
          if ((!SQLLINE_OPTIONS.contains(arg) || i + 1 >= args.length) && unknown == null) {
            unknown = arg;
          }
          sqlline.add(arg);
          if (i + 1 < args.length) {
            sqlline.add(args[++i]); // sqlline's one-dash options all take a value
          }
        } else if (location == null) {
          location = arg;
        } else {
          help = true; // two locations
        }
      }
      return new Arguments(
          location, batch, help, List.copyOf(sqlline), List.copyOf(emptied), unknown);
    }

    /** Whether {@code --name[=value]} or {@code --no-name} names one of sqlline's properties. */
    private static boolean isSqllineProperty(String arg) {
      String name = arg.startsWith("--no-") ? arg.substring(5) : arg.substring(2);
      int equals = name.indexOf('=');
      if (equals >= 0) {
        name = name.substring(0, equals);
      }
      return BuiltInProperty.valueOf(name, true) != null;
    }
  }
}
