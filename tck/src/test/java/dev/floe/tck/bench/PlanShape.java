package dev.floe.tck.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The joins of a plan as EXPLAIN prints it (one node a line, each input indented two spaces more
 * than its parent): {@code Hash/inner(Merge/semi(orders, lineitem), customer)}. A join is its
 * algorithm (Calcite's node name without {@code Enumerable} and {@code Join}) and join type; a scan
 * is its table's name; an aggregate is {@code Agg} ({@code Agg1} when it has no GROUP BY, so one
 * row: a join with it needs no key, and is marked {@code [one row]}, not {@link #NO_KEY}); every
 * other node is left out, its inputs taking its place.
 */
public final class PlanShape {
  private static final Pattern NAME = Pattern.compile("^(\\s*)(\\w+)(\\((.*)\\))?\\s*$");
  private static final Pattern TABLE = Pattern.compile("table=\\[\\[([^\\]]*)\\]\\]");
  private static final Pattern JOIN_TYPE = Pattern.compile("joinType=\\[(\\w+)\\]");
  private static final Pattern CONDITION = Pattern.compile("condition=\\[(.*?)\\](, |$)");
  private static final Pattern EQUALITY = Pattern.compile("(?<![<>!])=\\(");

  /** The mark of a join without an equality between its inputs (a cross product). */
  public static final String NO_KEY = "[no equi-key]";

  private record Node(int depth, String label, List<Node> inputs) {}

  private PlanShape() {}

  /** The shape of the plan in these lines of EXPLAIN's text. */
  public static String of(List<String> lines) {
    List<Node> roots = new ArrayList<>();
    List<Node> stack = new ArrayList<>();
    for (String line : lines) {
      Matcher m = NAME.matcher(line);
      if (line.isBlank() || !m.matches()) {
        continue;
      }
      int depth = m.group(1).length();
      Node node =
          new Node(
              depth, label(m.group(2), m.group(4) == null ? "" : m.group(4)), new ArrayList<>());
      while (!stack.isEmpty() && stack.get(stack.size() - 1).depth() >= depth) {
        stack.remove(stack.size() - 1);
      }
      if (stack.isEmpty()) {
        roots.add(node);
      } else {
        stack.get(stack.size() - 1).inputs().add(node);
      }
      stack.add(node);
    }
    List<String> shapes = new ArrayList<>();
    for (Node root : roots) {
      shapes.addAll(shapes(root));
    }
    return String.join(", ", shapes);
  }

  /** The label of a join or scan; null for a node left out. */
  private static String label(String name, String terms) {
    if (name.contains("Scan")) {
      Matcher table = TABLE.matcher(terms);
      if (!table.find()) {
        return name;
      }
      String[] parts = table.group(1).split(",\\s*");
      String last = parts[parts.length - 1];
      return last.substring(last.lastIndexOf('/') + 1);
    }
    if (name.contains("Aggregate")) {
      return terms.contains("group=[{}]") ? "Agg1" : "Agg";
    }
    if (name.contains("Join") || name.contains("Correlate")) {
      String algorithm = name.replace("Enumerable", "").replace("Logical", "").replace("Join", "");
      if (algorithm.isEmpty()) {
        algorithm = "Join";
      }
      Matcher type = JOIN_TYPE.matcher(terms);
      String label = algorithm + "/" + (type.find() ? type.group(1) : "?");
      Matcher condition = CONDITION.matcher(terms);
      if (condition.find() && !EQUALITY.matcher(condition.group(1)).find()) {
        label += NO_KEY;
      }
      return label;
    }
    return null;
  }

  private static List<String> shapes(Node node) {
    List<String> inputs = new ArrayList<>();
    for (Node input : node.inputs()) {
      inputs.addAll(shapes(input));
    }
    if (node.label() == null) {
      return inputs;
    }
    if (inputs.isEmpty()) {
      return List.of(node.label());
    }
    String label = node.label();
    if (label.endsWith(NO_KEY) && inputs.stream().anyMatch(i -> i.startsWith("Agg1"))) {
      label = label.substring(0, label.length() - NO_KEY.length()) + "[one row]";
    }
    return List.of(label + "(" + String.join(", ", inputs) + ")");
  }
}
