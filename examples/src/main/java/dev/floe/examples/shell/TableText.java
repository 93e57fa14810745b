package dev.floe.examples.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Lays out a result as the shell's table: a box of {@code +-}, {@code -+} and {@code |} lines, as
 * sqlline draws it, with every value whole. A value holding line breaks takes as many lines of its
 * row as it has lines; a column is as wide as its widest line. Nothing is cut to fit a terminal: a
 * line wider than the terminal wraps there.
 */
public final class TableText {
  private TableText() {}

  /**
   * The lines of a table: the column labels (centred) between borders when {@code showHeader}, then
   * each row.
   */
  public static List<String> lines(String[] header, List<String[]> rows, boolean showHeader) {
    int columns = header.length;
    int[] widths = new int[columns];
    for (int c = 0; c < columns; c++) {
      widths[c] = Math.max(1, width(header[c]));
    }
    List<String[][]> split = new ArrayList<>(rows.size());
    for (String[] row : rows) {
      String[][] cells = new String[columns][];
      for (int c = 0; c < columns; c++) {
        cells[c] = cellLines(c < row.length ? row[c] : null);
        for (String line : cells[c]) {
          widths[c] = Math.max(widths[c], line.length());
        }
      }
      split.add(cells);
    }
    StringBuilder border = new StringBuilder("+-");
    for (int c = 0; c < columns; c++) {
      border.append("-".repeat(widths[c])).append(c + 1 < columns ? "-+-" : "-+");
    }
    List<String> out = new ArrayList<>();
    if (showHeader) {
      out.add(border.toString());
      StringBuilder labels = new StringBuilder("| ");
      for (int c = 0; c < columns; c++) {
        String label = header[c] == null ? "" : header[c].replace('\n', ' ');
        int left = (widths[c] - label.length()) / 2;
        labels
            .append(" ".repeat(left))
            .append(label)
            .append(" ".repeat(widths[c] - label.length() - left))
            .append(c + 1 < columns ? " | " : " |");
      }
      out.add(labels.toString());
    }
    out.add(border.toString());
    for (String[][] cells : split) {
      int height = 1;
      for (String[] cell : cells) {
        height = Math.max(height, cell.length);
      }
      for (int l = 0; l < height; l++) {
        StringBuilder line = new StringBuilder("| ");
        for (int c = 0; c < columns; c++) {
          String text = l < cells[c].length ? cells[c][l] : "";
          line.append(text)
              .append(" ".repeat(widths[c] - text.length()))
              .append(c + 1 < columns ? " | " : " |");
        }
        out.add(line.toString());
      }
    }
    if (!split.isEmpty() || showHeader) {
      out.add(border.toString());
    }
    return out;
  }

  private static int width(String text) {
    int widest = 0;
    for (String line : cellLines(text)) {
      widest = Math.max(widest, line.length());
    }
    return widest;
  }

  /** A value's lines, without a final empty line after a closing line break. */
  private static String[] cellLines(String value) {
    if (value == null) {
      return new String[] {""};
    }
    String[] lines = value.replace("\r\n", "\n").replace('\t', ' ').split("\n", -1);
    int n = lines.length;
    while (n > 1 && lines[n - 1].isEmpty()) {
      n--;
    }
    String[] kept = new String[n];
    System.arraycopy(lines, 0, kept, 0, n);
    return kept;
  }
}
