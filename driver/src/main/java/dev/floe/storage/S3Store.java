package dev.floe.storage;

import dev.floe.config.FloeProperty;
import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.LegacyMd5Plugin;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A lake under an S3 prefix: {@code s3://bucket/prefix}. Files are read and written through
 * Iceberg's {@link S3FileIO}; folders are key prefixes, listed one level at a time with the
 * delimiter {@code /}; table versions are published with a conditional PUT ({@code If-None-Match:
 * *}), after checking once that the store honours it (or the user opted in to single-writer mode).
 *
 * <p>The client is configured from the connection properties, falling back to the AWS default
 * credential chain and region provider; it retries a failed request at most {@value #ATTEMPTS}
 * times in all and gives up connecting after {@value #CONNECT_TIMEOUT_MS} ms, so a bad endpoint
 * fails in seconds. Credentials never appear in what it reports. Thread-safe.
 */
public final class S3Store implements LakeStore {
  static final int ATTEMPTS = 4;
  static final int CONNECT_TIMEOUT_MS = 2000;
  private static final int READ_TIMEOUT_MS = 30_000;
  private static final int LIST_PAGE_LIMIT = 1000;

  private final LakeLocation root;
  private final String bucket;
  private final String rootKey;
  private final S3Client client;
  private final S3LakeFileIO io;
  private final boolean singleWriter;
  private final List<String> secrets;
  private Boolean conditionalWrites;
  private final java.util.concurrent.ConcurrentHashMap<String, Remembered> discovery =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** How long discovery results (folders, which of them are tables) are remembered. */
  static final long DISCOVERY_MILLIS = 10_000;

  private record Remembered(long until, Object value) {}

  private S3Store(LakeLocation root, S3Client client, boolean singleWriter, List<String> secrets) {
    this.root = root;
    String rest = root.canonical().substring("s3://".length());
    int slash = rest.indexOf('/');
    this.bucket = slash < 0 ? rest : rest.substring(0, slash);
    this.rootKey = slash < 0 ? "" : rest.substring(slash + 1);
    this.client = client;
    this.singleWriter = singleWriter;
    this.secrets = secrets;
    S3FileIO s3 = new S3FileIO(() -> client);
    s3.initialize(Map.of());
    this.io = new S3LakeFileIO(s3, this);
  }

  /**
   * Connects to the lake at an S3 location: builds the client and checks that the bucket can be
   * listed with the credentials given.
   *
   * @throws FloeException CANNOT_OPEN when the endpoint cannot be reached, the credentials are
   *     refused or the bucket does not exist
   */
  public static S3Store open(LakeLocation root, Properties properties) {
    List<String> secrets = new ArrayList<>();
    for (FloeProperty p : FloeProperty.values()) {
      String value = properties.getProperty(p.key());
      if (p.secret() && value != null && !value.isEmpty()) {
        secrets.add(value);
      }
    }
    S3Client client = buildClient(root, properties, secrets);
    S3Store store =
        new S3Store(root, client, FloeProperty.S3_SINGLE_WRITER.isTrue(properties), secrets);
    try {
      store.checkReachable();
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  private static S3Client buildClient(
      LakeLocation root, Properties properties, List<String> secrets) {
    String endpoint = FloeProperty.S3_ENDPOINT.in(properties).trim();
    String accessKey = FloeProperty.S3_ACCESS_KEY_ID.in(properties).trim();
    String secretKey = FloeProperty.S3_SECRET_ACCESS_KEY.in(properties).trim();
    String token = FloeProperty.S3_SESSION_TOKEN.in(properties).trim();
    String region = FloeProperty.CLIENT_REGION.in(properties).trim();
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                ApacheHttpClient.builder()
                    .connectionTimeout(Duration.ofMillis(CONNECT_TIMEOUT_MS))
                    .socketTimeout(Duration.ofMillis(READ_TIMEOUT_MS))
                    .maxConnections(64))
            .overrideConfiguration(
                c ->
                    c.retryStrategy(
                        AwsRetryStrategy.standardRetryStrategy().toBuilder()
                            .maxAttempts(ATTEMPTS)
                            .circuitBreakerEnabled(false)
                            .build()))
            // Checksums only where S3 requires them, and Content-MD5 on the requests that need
            // one (multi-object delete): S3-compatible stores differ in the rest.
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .addPlugin(LegacyMd5Plugin.create());
    boolean pathStyle = FloeProperty.S3_PATH_STYLE_ACCESS.isTrue(properties);
    if (!endpoint.isEmpty()) {
      URI uri;
      try {
        uri = URI.create(endpoint);
      } catch (IllegalArgumentException e) {
        throw FloeError.CANNOT_OPEN.error(root, "s3.endpoint is not a URL");
      }
      if (uri.getScheme() == null || uri.getHost() == null) {
        throw FloeError.CANNOT_OPEN.error(
            root, "s3.endpoint must be a URL such as http://host:port");
      }
      builder.endpointOverride(uri);
      // A bucket cannot be a sub-domain of an IP address or of localhost.
      pathStyle = pathStyle || isAddressOrLocalhost(uri.getHost());
    }
    builder.forcePathStyle(pathStyle);
    builder.region(region(region, endpoint));
    if (region.isEmpty() && endpoint.isEmpty()) {
      builder.crossRegionAccessEnabled(true);
    }
    builder.credentialsProvider(credentials(root, accessKey, secretKey, token));
    try {
      return builder.build();
    } catch (SdkException e) {
      throw FloeError.CANNOT_OPEN.error(root, redact(e.getMessage(), secrets));
    }
  }

  private static Region region(String region, String endpoint) {
    if (!region.isEmpty()) {
      return Region.of(region);
    }
    try {
      return new DefaultAwsRegionProviderChain().getRegion();
    } catch (SdkException e) {
      // No region configured anywhere: any region signs for a custom endpoint, and AWS itself
      // redirects a request for a bucket of another region.
      return Region.US_EAST_1;
    }
  }

  private static AwsCredentialsProvider credentials(
      LakeLocation root, String accessKey, String secretKey, String token) {
    if (accessKey.isEmpty() && secretKey.isEmpty()) {
      return DefaultCredentialsProvider.builder().build();
    }
    if (accessKey.isEmpty() || secretKey.isEmpty()) {
      throw FloeError.CANNOT_OPEN.error(
          root, "s3.access-key-id and s3.secret-access-key must be given together");
    }
    return StaticCredentialsProvider.create(
        token.isEmpty()
            ? AwsBasicCredentials.create(accessKey, secretKey)
            : AwsSessionCredentials.create(accessKey, secretKey, token));
  }

  private static boolean isAddressOrLocalhost(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    return h.equals("localhost")
        || h.startsWith("[")
        || h.chars().allMatch(c -> Character.isDigit(c) || c == '.');
  }

  /** Lists the lake's prefix once, so a bad endpoint, key or bucket fails at connect. */
  private void checkReachable() {
    try {
      client.listObjectsV2(
          ListObjectsV2Request.builder()
              .bucket(bucket)
              .prefix(folderPrefix(root.canonical()))
              .delimiter("/")
              .maxKeys(1)
              .build());
    } catch (NoSuchBucketException e) {
      throw FloeError.CANNOT_OPEN.error(root, "the bucket " + bucket + " does not exist");
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        throw FloeError.CANNOT_OPEN.error(root, "the bucket " + bucket + " does not exist");
      }
      if (e.statusCode() == 403 || e.statusCode() == 401) {
        throw FloeError.CANNOT_OPEN.error(
            root,
            "the store refused the credentials (HTTP "
                + e.statusCode()
                + "); check s3.access-key-id and s3.secret-access-key, or the AWS default"
                + " credential chain");
      }
      throw FloeError.CANNOT_OPEN.error(root, describe(e));
    } catch (SdkException e) {
      throw FloeError.CANNOT_OPEN.error(
          root, "the store cannot be reached: " + redact(e.getMessage(), secrets));
    }
  }

  @Override
  public LakeLocation root() {
    return root;
  }

  @Override
  public FileIO io() {
    return io;
  }

  /** The S3 client, configured from the connection properties. */
  S3Client client() {
    return client;
  }

  /** The bucket. */
  String bucket() {
    return bucket;
  }

  @SuppressWarnings("unchecked")
  private <T> T remembered(String key, java.util.function.Supplier<T> compute) {
    long now = System.currentTimeMillis();
    Remembered r = discovery.get(key);
    if (r != null && r.until() > now) {
      return (T) r.value();
    }
    T value = compute.get();
    discovery.put(key, new Remembered(now + DISCOVERY_MILLIS, value));
    return value;
  }

  /** Forgets what discovery remembered: this connection changed the lake. */
  void forget() {
    discovery.clear();
  }

  @Override
  public List<String> childFolders(String folder) {
    return remembered("folders " + folder, () -> listChildFolders(folder));
  }

  private List<String> listChildFolders(String folder) {
    List<String> names = new ArrayList<>();
    String prefix = folderPrefix(folder);
    for (CommonPrefix common : listing(prefix, "/", Integer.MAX_VALUE).prefixes) {
      String name = common.prefix().substring(prefix.length());
      if (name.endsWith("/")) {
        name = name.substring(0, name.length() - 1);
      }
      if (!name.isEmpty() && !name.startsWith(".") && !name.contains("/")) {
        names.add(name);
      }
    }
    names.sort(null);
    return names;
  }

  @Override
  public boolean isTable(String folder) {
    return remembered("table " + folder, () -> holdsTable(folder));
  }

  private boolean holdsTable(String folder) {
    String metadata = folderPrefix(folder) + "metadata/";
    if (exists(metadata + LakeTableOperations.HINT)) {
      return true;
    }
    List<String> names = names(metadata);
    return !names.contains(LakeTableOperations.VIEW_HINT)
        && LakeTableOperations.holdsVersion(names);
  }

  @Override
  public boolean isView(String folder) {
    return remembered("view " + folder, () -> holdsView(folder));
  }

  private boolean holdsView(String folder) {
    if (isTable(folder)) {
      // A table's folder is no view; asked (and remembered) before, it costs no LIST here, so that
      // listing the views of a schema of tables lists each table's metadata only once.
      return false;
    }
    String metadata = folderPrefix(folder) + "metadata/";
    List<String> names = names(metadata);
    return names.contains(LakeTableOperations.VIEW_HINT)
        && !names.contains(LakeTableOperations.HINT)
        && LakeTableOperations.holdsVersion(names);
  }

  @Override
  public S3TableOperations viewOperations(String folder) {
    return new S3TableOperations(folder, this, true);
  }

  @Override
  public boolean isAvailable() {
    try {
      checkReachable();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public S3TableOperations operations(String folder) {
    return new S3TableOperations(folder, this, false);
  }

  @Override
  public void deleteTree(String folder) {
    deleteTree(folder, location -> false);
  }

  @Override
  public void deleteTree(String folder, Predicate<String> keep) {
    String prefix = folderPrefix(folder);
    if (prefix.isEmpty() || !prefix.startsWith(folderPrefix(root.canonical()))) {
      throw FloeError.INVALID_NAME.error(folder, "Floe deletes only inside the lake");
    }
    forget();
    try {
      // One DELETE per object: multi-object delete is not implemented alike by every store.
      for (S3Object object : listing(prefix, null, Integer.MAX_VALUE).objects) {
        if (!keep.test("s3://" + bucket + "/" + object.key())) {
          client.deleteObject(b -> b.bucket(bucket).key(object.key()));
        }
      }
    } catch (SdkException e) {
      throw FloeError.IO.error(e, folder, "the store refused a delete: " + describe(e));
    } finally {
      forget();
    }
  }

  /** S3 keys are literal: the canonical spelling is {@code s3://bucket/key}. */
  @Override
  public UnaryOperator<String> canonicalizer() {
    return location -> {
      try {
        String key = key(location);
        return "s3://" + bucket + (key.isEmpty() ? "" : "/" + key);
      } catch (FloeException e) {
        return location;
      }
    };
  }

  @Override
  public synchronized void checkCanCommit() {
    if (singleWriter) {
      return;
    }
    if (conditionalWrites == null) {
      conditionalWrites = probeConditionalWrites();
    }
    if (!conditionalWrites) {
      throw FloeError.NOT_SUPPORTED.error(
          "commits to "
              + root
              + ": the store does not honour conditional writes (If-None-Match), so two writers"
              + " could overwrite each other's commits; if only one writer ever commits to this"
              + " lake, set s3.single-writer=true");
    }
  }

  /**
   * Writes a probe object twice with {@code If-None-Match: *}: a store that honours it refuses the
   * second write. The probe lives in the lake's hidden folder {@code .floe/} and is deleted.
   */
  private boolean probeConditionalWrites() {
    String key = folderPrefix(root.canonical()) + ".floe/probe-" + UUID.randomUUID();
    try {
      putIfAbsent(key, "probe".getBytes(StandardCharsets.UTF_8));
    } catch (S3Exception e) {
      if (e.statusCode() >= 500) {
        throw FloeError.IO.error(e, root, "the store failed a write: " + describe(e));
      }
      return false; // the header itself is refused
    } catch (SdkException e) {
      throw FloeError.IO.error(e, root, "the store failed a write: " + describe(e));
    }
    try {
      putIfAbsent(key, "probe".getBytes(StandardCharsets.UTF_8));
      return false;
    } catch (S3Exception e) {
      if (e.statusCode() == 412 || e.statusCode() == 409) {
        return true;
      }
      throw FloeError.IO.error(e, root, "the store failed a write: " + describe(e));
    } finally {
      try {
        client.deleteObject(b -> b.bucket(bucket).key(key));
      } catch (SdkException ignored) {
        // a leftover probe in the hidden folder is ignored by every reader
      }
    }
  }

  /** PUT with {@code If-None-Match: *}. */
  void putIfAbsent(String key, byte[] bytes) {
    forget();
    client.putObject(
        PutObjectRequest.builder().bucket(bucket).key(key).ifNoneMatch("*").build(),
        RequestBody.fromBytes(bytes));
  }

  /** An unconditional PUT. */
  void put(String key, byte[] bytes) {
    forget();
    client.putObject(
        PutObjectRequest.builder().bucket(bucket).key(key).build(), RequestBody.fromBytes(bytes));
  }

  /** The object's bytes, or null when it does not exist. */
  byte[] get(String key) {
    try {
      return client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
    } catch (NoSuchKeyException e) {
      return null;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return null;
      }
      throw e;
    }
  }

  /**
   * What identifies an object's contents (HEAD: its ETag, size and modification time), or null when
   * it cannot be told.
   */
  String stamp(String key) {
    try {
      var head = client.headObject(b -> b.bucket(bucket).key(key));
      return head.eTag() == null
          ? null
          : head.eTag() + "/" + head.contentLength() + "/" + head.lastModified();
    } catch (SdkException e) {
      return null;
    }
  }

  /** Whether an object exists (HEAD). */
  boolean exists(String key) {
    try {
      client.headObject(b -> b.bucket(bucket).key(key));
      return true;
    } catch (NoSuchKeyException e) {
      return false;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return false;
      }
      throw FloeError.IO.error(e, "s3://" + bucket + "/" + key, describe(e));
    } catch (SdkException e) {
      throw FloeError.IO.error(e, "s3://" + bucket + "/" + key, describe(e));
    }
  }

  /** The names of the objects directly under a prefix ending in {@code /}. */
  List<String> names(String prefix) {
    List<String> names = new ArrayList<>();
    for (S3Object object : listing(prefix, "/", Integer.MAX_VALUE).objects) {
      names.add(object.key().substring(prefix.length()));
    }
    return names;
  }

  private record Listing(List<CommonPrefix> prefixes, List<S3Object> objects) {}

  private Listing listing(String prefix, String delimiter, int maxPages) {
    List<CommonPrefix> prefixes = new ArrayList<>();
    List<S3Object> objects = new ArrayList<>();
    String token = null;
    try {
      for (int page = 0; page < maxPages; page++) {
        ListObjectsV2Response response =
            client.listObjectsV2(
                ListObjectsV2Request.builder()
                    .bucket(bucket)
                    .prefix(prefix)
                    .delimiter(delimiter)
                    .maxKeys(LIST_PAGE_LIMIT)
                    .continuationToken(token)
                    .build());
        prefixes.addAll(response.commonPrefixes());
        objects.addAll(response.contents());
        if (!Boolean.TRUE.equals(response.isTruncated())) {
          break;
        }
        token = response.nextContinuationToken();
      }
    } catch (SdkException e) {
      throw FloeError.IO.error(e, "s3://" + bucket + "/" + prefix, describe(e));
    }
    return new Listing(prefixes, objects);
  }

  /** The key prefix of a folder in this bucket: {@code "a/b/"}, or {@code ""} for the bucket. */
  @Override
  public boolean contains(String location) {
    if (location == null || location.isEmpty()) {
      return false;
    }
    String key;
    try {
      key = key(location);
    } catch (FloeException e) {
      return false; // another bucket or another store
    }
    if (key.contains("//") || java.util.Arrays.asList(key.split("/")).contains("..")) {
      return false;
    }
    return rootKey.isEmpty() || key.equals(rootKey) || key.startsWith(rootKey + "/");
  }

  String folderPrefix(String folder) {
    String key = key(folder);
    return key.isEmpty() ? "" : key + "/";
  }

  /**
   * The key of a location in this lake's bucket ({@code s3://}, {@code s3a://} or {@code s3n://}).
   *
   * @throws FloeException INVALID_NAME for a location in another bucket or store
   */
  String key(String location) {
    String lower = location.toLowerCase(Locale.ROOT);
    int schemeEnd = location.indexOf("://");
    if (schemeEnd < 0
        || !(lower.startsWith("s3://")
            || lower.startsWith("s3a://")
            || lower.startsWith("s3n://"))) {
      throw FloeError.INVALID_NAME.error(location, "it is not in the lake " + root);
    }
    String rest = location.substring(schemeEnd + 3);
    int slash = rest.indexOf('/');
    String locationBucket = slash < 0 ? rest : rest.substring(0, slash);
    if (!locationBucket.equals(bucket)) {
      throw FloeError.INVALID_NAME.error(location, "it is not in the lake " + root);
    }
    String key = slash < 0 ? "" : rest.substring(slash + 1);
    while (key.endsWith("/")) {
      key = key.substring(0, key.length() - 1);
    }
    return key;
  }

  /** A store error in a few words, without anything secret. */
  String describe(Throwable e) {
    if (e instanceof S3Exception s3) {
      String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
      return "HTTP " + s3.statusCode() + (code == null ? "" : " " + code);
    }
    return redact(String.valueOf(e.getMessage()), secrets);
  }

  static String redact(String message, List<String> secrets) {
    String text = String.valueOf(message);
    for (String secret : secrets) {
      text = text.replace(secret, "***");
    }
    return text;
  }

  @Override
  public void close() {
    io.close();
  }
}
