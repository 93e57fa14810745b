package dev.floe.tck.s3;

import java.net.URI;
import java.util.Properties;
import java.util.UUID;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;

/**
 * A real S3 server for tests: s3proxy with an in-memory blob store, started once per test JVM on
 * 127.0.0.1 at a random port, AWS v4 signatures. Each test takes a fresh bucket.
 */
public final class S3TestServer {
  public static final String ACCESS_KEY = "FLOEACCESSKEYTEST7Q2";
  public static final String SECRET_KEY = "floeSecretKey+Test/9c1e4b7d2a6f";

  private static S3TestServer instance;

  private final S3Proxy proxy;
  private final TransientNio2BlobStore blobs = new TransientNio2BlobStore();

  private S3TestServer() throws Exception {
    proxy =
        S3Proxy.builder()
            .blobStore(blobs)
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V4, ACCESS_KEY, SECRET_KEY)
            .build();
    proxy.start();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!"STARTED".equals(proxy.getState()) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  public static synchronized S3TestServer get() {
    if (instance == null) {
      try {
        instance = new S3TestServer();
      } catch (Exception e) {
        throw new IllegalStateException("Cannot start the S3 test server", e);
      }
      S3TestServer started = instance;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      started.proxy.stop();
                    } catch (Exception ignored) {
                      // the JVM is ending
                    }
                  }));
    }
    return instance;
  }

  public String endpoint() {
    return "http://127.0.0.1:" + proxy.getPort();
  }

  /** A new, empty bucket. */
  public String newBucket() {
    String bucket = "b" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    blobs.createContainer(bucket);
    return bucket;
  }

  /** Connection properties for this server with the right credentials. */
  public Properties properties() {
    Properties p = new Properties();
    p.setProperty("s3.endpoint", endpoint());
    p.setProperty("s3.access-key-id", ACCESS_KEY);
    p.setProperty("s3.secret-access-key", SECRET_KEY);
    p.setProperty("client.region", "us-east-1");
    return p;
  }

  /** Whether an object exists, asked of the blob store directly. */
  public boolean exists(String bucket, String key) {
    return blobs.blobExists(bucket, key);
  }

  /** Writes an object directly into the blob store, as another program would. */
  public void put(String bucket, String key, byte[] content) {
    blobs.putBlob(
        software.amazon.awssdk.services.s3.model.PutObjectRequest.builder()
            .bucket(bucket)
            .key(key)
            .contentLength((long) content.length)
            .build(),
        new java.io.ByteArrayInputStream(content));
  }

  /** An object's content, read from the blob store directly. */
  public byte[] read(String bucket, String key) {
    try (var in =
        blobs.getBlob(
            software.amazon.awssdk.services.s3.model.GetObjectRequest.builder()
                .bucket(bucket)
                .key(key)
                .build())) {
      return in.readAllBytes();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Every key in a bucket. */
  public java.util.List<String> keys(String bucket) {
    java.util.List<String> keys = new java.util.ArrayList<>();
    String token = null;
    do {
      var response =
          blobs.list(
              software.amazon.awssdk.services.s3.model.ListObjectsV2Request.builder()
                  .bucket(bucket)
                  .continuationToken(token)
                  .build());
      response.contents().forEach(o -> keys.add(o.key()));
      token = Boolean.TRUE.equals(response.isTruncated()) ? response.nextContinuationToken() : null;
    } while (token != null);
    java.util.Collections.sort(keys);
    return keys;
  }

  /** The port the server listens on. */
  public int port() {
    return proxy.getPort();
  }

  /**
   * A {@code jdbc:floe:} URL for a lake in a bucket, with credentials in the URL (the way a user
   * pastes them into a tool), at an endpoint (the server itself, or a proxy in front of it).
   */
  public String url(String bucket, String prefix, String endpoint) {
    return "jdbc:floe:s3://"
        + bucket
        + "/"
        + prefix
        + "?s3.endpoint="
        + endpoint
        + "&s3.access-key-id="
        + ACCESS_KEY
        + "&s3.secret-access-key="
        + java.net.URLEncoder.encode(SECRET_KEY, java.nio.charset.StandardCharsets.UTF_8)
        + "&client.region=us-east-1";
  }

  /** A URL for a lake at this server. */
  public String url(String bucket, String prefix) {
    return url(bucket, prefix, endpoint());
  }
}
