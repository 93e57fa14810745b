package dev.floe.tck.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP proxy on 127.0.0.1 between Floe and the S3 test server. It counts requests by kind
 * (LIST, GET, HEAD, PUT, DELETE, POST) and lets a test inject faults: answer 503 SlowDown or 500
 * InternalError instead of forwarding, or forward a request and then drop the connection without
 * the answer (the server applied it; the client never hears). One request per connection; the
 * answer says {@code Connection: close}.
 */
public final class FaultProxy implements AutoCloseable {
  /** What to do with one request. */
  public enum Action {
    FORWARD,
    SLOW_DOWN,
    INTERNAL_ERROR,
    DROP_AFTER_FORWARDING,
    /** Forwards, and answers 200 even when the server refused a conditional write. */
    IGNORE_CONDITION
  }

  /** One request as the proxy saw it. */
  public record Request(String method, String path, String query, Map<String, String> headers) {
    /** Whether the request is a conditional PUT ({@code If-None-Match}). */
    public boolean conditional() {
      return headers.containsKey("if-none-match");
    }
  }

  /** Chooses the action for each request. */
  public interface Rule {
    Action decide(Request request);
  }

  private final ServerSocket server;
  private final int upstreamPort;
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "fault-proxy");
            t.setDaemon(true);
            return t;
          });
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  private volatile Rule rule = request -> Action.FORWARD;
  private volatile boolean closed;

  public FaultProxy(int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    pool.submit(this::accept);
  }

  /** The endpoint to give Floe. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  public void rule(Rule rule) {
    this.rule = rule;
  }

  /** How many requests of a kind were seen since the last reset. */
  public int count(String kind) {
    AtomicInteger n = counts.get(kind);
    return n == null ? 0 : n.get();
  }

  public void resetCounts() {
    counts.clear();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        pool.submit(() -> handle(client));
      } catch (IOException e) {
        if (closed) {
          return;
        }
      }
    }
  }

  private void handle(Socket client) {
    try (client) {
      client.setSoTimeout(60_000);
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      String requestLine = line(in);
      if (requestLine == null || requestLine.isEmpty()) {
        return;
      }
      Map<String, String> headers = new LinkedHashMap<>();
      StringBuilder head = new StringBuilder();
      for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
        int colon = line.indexOf(':');
        String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        headers.put(name, line.substring(colon + 1).trim());
        if (!name.equals("connection") && !name.equals("expect")) {
          head.append(line).append("\r\n");
        }
      }
      String[] parts = requestLine.split(" ");
      String method = parts[0];
      String target = parts[1];
      int q = target.indexOf('?');
      Request request =
          new Request(
              method,
              q < 0 ? target : target.substring(0, q),
              q < 0 ? "" : target.substring(q + 1),
              headers);
      counts.computeIfAbsent(kind(request), k -> new AtomicInteger()).incrementAndGet();
      if ("100-continue".equalsIgnoreCase(headers.get("expect"))) {
        out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
      byte[] body = body(in, headers);
      Action action = rule.decide(request);
      if (action == Action.SLOW_DOWN || action == Action.INTERNAL_ERROR) {
        boolean slow = action == Action.SLOW_DOWN;
        String xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                + (slow ? "SlowDown" : "InternalError")
                + "</Code><Message>injected</Message></Error>";
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        String status = slow ? "503 Slow Down" : "500 Internal Server Error";
        out.write(
            ("HTTP/1.1 "
                    + status
                    + "\r\nContent-Type: application/xml\r\nContent-Length: "
                    + (method.equals("HEAD") ? 0 : bytes.length)
                    + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        if (!method.equals("HEAD")) {
          out.write(bytes);
        }
        out.flush();
        return;
      }
      try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
        OutputStream up = upstream.getOutputStream();
        up.write(
            (requestLine + "\r\n" + head + "Connection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        up.write(body);
        up.flush();
        byte[] response = upstream.getInputStream().readAllBytes();
        if (action == Action.DROP_AFTER_FORWARDING) {
          client.setSoLinger(true, 0); // a reset, as a dropped connection looks to the client
          return;
        }
        if (action == Action.IGNORE_CONDITION
            && new String(response, 0, Math.min(12, response.length), StandardCharsets.ISO_8859_1)
                .endsWith("412")) {
          response =
              "HTTP/1.1 200 OK\r\nETag: \"0\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.ISO_8859_1);
        }
        out.write(response);
        out.flush();
      }
    } catch (IOException e) {
      // the client or the server went away: nothing to forward
    }
  }

  private static String kind(Request request) {
    String path = request.path().startsWith("/") ? request.path().substring(1) : request.path();
    boolean bucketOnly = !path.contains("/") || path.indexOf('/') == path.length() - 1;
    if (request.method().equals("GET") && (bucketOnly || request.query().contains("list-type"))) {
      return "LIST";
    }
    return request.method();
  }

  private static byte[] body(InputStream in, Map<String, String> headers) throws IOException {
    String length = headers.get("content-length");
    if (length != null) {
      return in.readNBytes(Integer.parseInt(length));
    }
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      while (true) {
        String size = line(in);
        raw.write((size + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        int n = Integer.parseInt(size.split(";")[0].trim(), 16);
        raw.write(in.readNBytes(n + 2));
        if (n == 0) {
          return raw.toByteArray();
        }
      }
    }
    return new byte[0];
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        int end =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
    }
    return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    pool.shutdownNow();
  }
}
