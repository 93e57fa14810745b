package dev.floe.planner.function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.error.FloeError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.linq4j.function.Strict;

/**
 * JSON extraction from text, as Trino ({@code json_extract}, {@code json_extract_scalar}), DuckDB
 * ({@code json_extract_string}) and Spark ({@code get_json_object}) spell it. A path is the
 * JSONPath subset these engines share: {@code $}, then {@code .key}, {@code ["key"]} or {@code
 * [index]} steps. Text that is not JSON, or a path that finds nothing, gives NULL; a path Floe
 * cannot read is an error (22023). NULL in, NULL out.
 */
@Strict
public final class JsonExtraction {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The most paths one statement keeps parsed. */
  private static final int KEPT = 256;

  private final Map<String, List<Object>> paths = new ConcurrentHashMap<>();

  /** Creates the functions of one statement. */
  public JsonExtraction() {}

  /** The value at {@code path} as JSON text ({@code "a"} for a string), or NULL. */
  public String jsonExtract(String json, String path) {
    JsonNode node = find("json_extract", json, path);
    return node == null ? null : node.toString();
  }

  /** The scalar at {@code path} as text ({@code a} for a string), NULL for an object or array. */
  public String jsonExtractScalar(String json, String path) {
    JsonNode node = find("json_extract_scalar", json, path);
    return node == null || node.isContainerNode() || node.isNull() ? null : node.asText();
  }

  /** The scalar at {@code path} as text, an object or array as JSON text, or NULL. */
  public String jsonExtractString(String json, String path) {
    JsonNode node = find("json_extract_string", json, path);
    if (node == null || node.isNull()) {
      return null;
    }
    return node.isContainerNode() ? node.toString() : node.asText();
  }

  private JsonNode find(String function, String json, String path) {
    List<Object> steps = steps(function, path);
    JsonNode node;
    try {
      node = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      return null;
    }
    for (Object step : steps) {
      if (node == null) {
        return null;
      }
      node = step instanceof Integer ? node.get((Integer) step) : node.get((String) step);
    }
    return node == null || node.isMissingNode() ? null : node;
  }

  private List<Object> steps(String function, String path) {
    List<Object> steps = paths.get(path);
    if (steps == null) {
      steps = parse(function, path);
      if (paths.size() >= KEPT) {
        paths.clear();
      }
      paths.put(path, steps);
    }
    return steps;
  }

  /** The steps of a path: a String is an object's key, an Integer an array's index. */
  static List<Object> parse(String function, String path) {
    String p = path.trim();
    if (!p.startsWith("$")) {
      throw badPath(function, path, "it does not start with $");
    }
    List<Object> steps = new ArrayList<>();
    int i = 1;
    while (i < p.length()) {
      char c = p.charAt(i);
      if (c == '.') {
        int end = i + 1;
        while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
          end++;
        }
        String key = p.substring(i + 1, end);
        if (key.isEmpty() || key.equals("*")) {
          throw badPath(function, path, "a step after a dot must be a key");
        }
        steps.add(key);
        i = end;
      } else if (c == '[') {
        int close = p.indexOf(']', i);
        if (close < 0) {
          throw badPath(function, path, "a [ is not closed");
        }
        String inside = p.substring(i + 1, close).trim();
        if (inside.length() >= 2
            && (inside.charAt(0) == '"' || inside.charAt(0) == '\'')
            && inside.charAt(inside.length() - 1) == inside.charAt(0)) {
          steps.add(inside.substring(1, inside.length() - 1));
        } else {
          try {
            steps.add(Integer.parseInt(inside));
          } catch (NumberFormatException e) {
            throw badPath(function, path, "[" + inside + "] is neither an index nor a quoted key");
          }
        }
        i = close + 1;
      } else {
        throw badPath(function, path, "'" + c + "' cannot follow a step");
      }
    }
    return List.copyOf(steps);
  }

  private static RuntimeException badPath(String function, String path, String why) {
    return FloeError.INVALID_FUNCTION_ARGUMENT.error(
        function, "the JSON path '" + path + "' is not one Floe reads: " + why);
  }
}
