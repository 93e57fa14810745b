package dev.floe.tck.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Access keys, secret keys and session tokens never appear in what Floe shows: exception messages
 * and their causes (for good and malformed URLs), {@code getURL()}, {@code toString()}, EXPLAIN and
 * the driver's property info.
 */
class S3SecretsTest {
  private static final String TOKEN = "FloeSessionToken0123456789abcdefXYZ";
  private final S3TestServer server = S3TestServer.get();
  private final List<String> shown = new ArrayList<>();

  private void failure(String url, Properties properties) {
    try (Connection c = DriverManager.getConnection(url, properties)) {
      shown.add(c.toString());
      shown.add(c.getMetaData().getURL());
      try (Statement s = c.createStatement()) {
        s.executeUpdate("CREATE TABLE t (id INT)");
      }
    } catch (SQLException e) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      shown.add(trace.toString());
    }
  }

  @Test
  void credentialsAreNeverShown() throws Exception {
    String bucket = server.newBucket();
    String good = server.url(bucket, "lake") + "&s3.session-token=" + TOKEN;
    try (Connection c = DriverManager.getConnection(server.url(bucket, "lake"))) {
      shown.add(c.toString());
      shown.add(c.getMetaData().getURL());
      try (Statement s = c.createStatement()) {
        s.executeUpdate("CREATE TABLE t (id INT)");
        s.executeUpdate("INSERT INTO t VALUES (1)");
        try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT * FROM t WHERE id = 1")) {
          while (rs.next()) {
            shown.add(rs.getString(1));
          }
        }
        try {
          s.executeQuery("SELECT * FROM missing");
        } catch (SQLException e) {
          shown.add(e.getMessage());
        }
      }
      assertThat(c.getMetaData().getURL()).contains("s3.endpoint");
    }
    Driver driver = DriverManager.getDriver(good);
    for (DriverPropertyInfo info : driver.getPropertyInfo(good, new Properties())) {
      shown.add(info.name + "=" + info.value);
    }
    Properties none = new Properties();
    String secret =
        "&s3.access-key-id="
            + S3TestServer.ACCESS_KEY
            + "&s3.secret-access-key="
            + S3TestServer.SECRET_KEY
            + "&s3.session-token="
            + TOKEN;
    failure(good, none); // session token the server does not know: refused credentials
    failure("jdbc:floe:s3://Bad_Bucket/lake?s3.endpoint=" + server.endpoint() + secret, none);
    failure(
        "jdbc:floe:s3://"
            + bucket
            + "/lake?s3.endpoint="
            + server.endpoint()
            + "&s3.secret-access-key=%zz"
            + S3TestServer.SECRET_KEY
            + "&s3.access-key-id="
            + S3TestServer.ACCESS_KEY,
        none);
    failure(
        "jdbc:floe:s3://"
            + S3TestServer.ACCESS_KEY
            + ":"
            + S3TestServer.SECRET_KEY
            + "@"
            + bucket
            + "/lake?s3.endpoint="
            + server.endpoint(),
        none);
    failure("jdbc:floe:s3://" + bucket + "/lake?s3.endpoint=not a url" + secret, none);
    failure("jdbc:floe:s3://" + bucket + "/lake?s3.endpoint=http://127.0.0.1:1" + secret, none);
    failure(
        "jdbc:floe:s3://"
            + bucket
            + "/lake?s3.path-style-access=maybe&s3.endpoint="
            + server.endpoint()
            + secret,
        none);
    Properties inProperties = new Properties();
    inProperties.setProperty("s3.secret-access-key", S3TestServer.SECRET_KEY + "x");
    inProperties.setProperty("s3.access-key-id", S3TestServer.ACCESS_KEY);
    failure("jdbc:floe:s3://" + bucket + "/lake?s3.endpoint=" + server.endpoint(), inProperties);

    assertThat(shown).hasSizeGreaterThan(10);
    for (String text : shown) {
      assertThat(text)
          .doesNotContain(S3TestServer.ACCESS_KEY)
          .doesNotContain(S3TestServer.SECRET_KEY)
          .doesNotContain(
              java.net.URLEncoder.encode(
                  S3TestServer.SECRET_KEY, java.nio.charset.StandardCharsets.UTF_8))
          .doesNotContain(TOKEN);
    }
  }
}
