package dev.floe.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LakeLocationTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/data/lake",
        "file:/data/lake",
        "file:///data/lake",
        "file://localhost/data/lake",
        "/data/./lake/",
        "/data//lake",
        "/data/other/../lake",
        "FILE:/data/lake"
      })
  void everySpellingOfOnePlaceIsOneLocation(String spelling) {
    assertThat(LakeLocation.parse(spelling).canonical()).isEqualTo("file:/data/lake");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"C:\\orders", "c:/orders", "C:/orders/", "file:/C:/orders", "file:///c:/orders"})
  void windowsDrivePathsAreOneLocationOnAnyOperatingSystem(String spelling) {
    assertThat(LakeLocation.parse(spelling).canonical()).isEqualTo("file:/C:/orders");
  }

  @Test
  void aSpaceStaysASpaceAndEscapesInUrisAreDecodedOnce() {
    assertThat(LakeLocation.parse("/tmp/my lake").canonical()).isEqualTo("file:/tmp/my lake");
    assertThat(LakeLocation.parse("file:///tmp/my%20lake").canonical())
        .isEqualTo("file:/tmp/my lake");
    assertThat(LakeLocation.parse("file:///tmp/a%2520b").canonical()).isEqualTo("file:/tmp/a%20b");
    // A plain path is literal: its % is a character, not an escape.
    assertThat(LakeLocation.parse("/tmp/50%20off").canonical()).isEqualTo("file:/tmp/50%20off");
  }

  @Test
  void nonAsciiNamesAreKept() {
    assertThat(LakeLocation.parse("file:///tmp/%E6%97%A5%E6%9C%AC").canonical())
        .isEqualTo("file:/tmp/日本");
    assertThat(LakeLocation.parse("/tmp/日本").canonical()).isEqualTo("file:/tmp/日本");
  }

  @Test
  void relativePathsResolveAgainstTheWorkingDirectory() {
    Path expected = Paths.get("lake").toAbsolutePath().normalize();
    assertThat(LakeLocation.parse("./lake").localPath()).isEqualTo(expected);
    assertThat(LakeLocation.parse("lake").canonical()).isEqualTo("file:" + expected);
  }

  @Test
  void s3LocationsKeepBucketAndPrefix() {
    LakeLocation location = LakeLocation.parse("s3://bucket/some/prefix/");
    assertThat(location.isS3()).isTrue();
    assertThat(location.canonical()).isEqualTo("s3://bucket/some/prefix");
  }

  @Test
  void unknownSchemesAndBadEscapesAreRefusedWith08001() {
    assertThatThrownBy(() -> LakeLocation.parse("hdfs://nn/lake"))
        .isInstanceOf(FloeException.class)
        .hasMessageContaining("hdfs://nn/lake")
        .extracting(e -> ((FloeException) e).sqlState())
        .isEqualTo("08001");
    assertThatThrownBy(() -> LakeLocation.parse("file:///tmp/bad%zzescape"))
        .isInstanceOf(FloeException.class)
        .extracting(e -> ((FloeException) e).sqlState())
        .isEqualTo("08001");
    assertThatThrownBy(() -> LakeLocation.parse("file://otherhost/lake"))
        .isInstanceOf(FloeException.class);
    assertThatThrownBy(() -> LakeLocation.parse(" ")).isInstanceOf(FloeException.class);
  }

  @Test
  void localFileIoOpensEverySpellingOtherEnginesWrite(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("my lake").resolve("x.txt");
    java.nio.file.Files.createDirectories(file.getParent());
    java.nio.file.Files.writeString(file, "x");
    String raw = file.toString();
    for (String location :
        new String[] {
          raw,
          "file:" + raw,
          "file://" + raw,
          "file://localhost" + raw,
          "file://" + raw.replace(" ", "%20")
        }) {
      assertThat(LocalFileIO.toPath(location)).as(location).isEqualTo(file);
      assertThat(
              new LocalFileIO(new Sandbox(java.nio.file.Path.of("/")))
                  .newInputFile(location)
                  .exists())
          .as(location)
          .isTrue();
    }
  }

  @Test
  void s3LocationsAreCanonicalAndExact() {
    assertThat(LakeLocation.parse("s3a://bucket//my lake/").canonical())
        .isEqualTo("s3://bucket/my lake");
    assertThat(LakeLocation.parse("s3n://bucket/a%20b/c").canonical())
        .isEqualTo("s3://bucket/a b/c");
    assertThat(LakeLocation.parse("s3://bucket").resolve("t").canonical())
        .isEqualTo("s3://bucket/t");
    assertThat(LakeLocation.parse("S3://bucket/x").isS3()).isTrue();
  }

  @Test
  void s3LocationsWithCredentialsOrBadBucketsAreRefusedWithoutEchoingThem() {
    for (String bad :
        List.of(
            "s3://AKEY:sekrit@bucket/lake",
            "s3://AKEY:sek/rit@bucket/lake",
            "s3://Bad_Bucket_sekrit/lake",
            "hdfs://AKEY:sekrit@nn/lake")) {
      assertThatThrownBy(() -> LakeLocation.parse(bad))
          .isInstanceOf(FloeException.class)
          .satisfies(e -> assertThat(((FloeException) e).sqlState()).isEqualTo("08001"))
          .satisfies(
              e -> assertThat(e.getMessage()).doesNotContain("sekrit").doesNotContain("sek/"));
    }
  }
}
