package dev.floe.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One spelling per file: a location is made canonical as the file system resolves it (links
 * followed, {@code ..} taken after them), so no spelling, link or {@code ..} makes a file look like
 * another, or a place outside the lake look inside it.
 */
class CanonicalLocationTest {
  @TempDir Path base;

  @Test
  void aLinkToTheLakeAndTheLakeSpellOneFileAlike() throws Exception {
    Path lake = Files.createDirectories(base.resolve("lake"));
    Files.createDirectories(lake.resolve("t/data"));
    Files.writeString(lake.resolve("t/data/x.parquet"), "x");
    Path alias = Files.createSymbolicLink(base.resolve("alias"), lake);
    UnaryOperator<String> canonical =
        new LocalStore(LakeLocation.parse(lake.toString())).canonicalizer();
    String real = canonical.apply("file:" + lake.resolve("t/data/x.parquet"));
    assertThat(canonical.apply("file:" + alias.resolve("t/data/x.parquet"))).isEqualTo(real);
    assertThat(canonical.apply("file://" + alias + "/t/data/../data/x.parquet")).isEqualTo(real);
    assertThat(canonical.apply(lake.resolve("t/data/x.parquet").toString())).isEqualTo(real);
  }

  @Test
  void aFileNotYetWrittenIsSpelledFromItsFolder() throws Exception {
    Path lake = Files.createDirectories(base.resolve("lake"));
    Path alias = Files.createSymbolicLink(base.resolve("alias"), lake);
    UnaryOperator<String> canonical =
        new LocalStore(LakeLocation.parse(lake.toString())).canonicalizer();
    assertThat(canonical.apply("file:" + alias + "/t/new/y.parquet"))
        .isEqualTo(canonical.apply("file:" + lake + "/t/new/y.parquet"));
  }

  @Test
  void dotDotAfterALinkGoesWhereTheFileSystemGoes() throws Exception {
    Path lake = Files.createDirectories(base.resolve("lake"));
    Path deep = Files.createDirectories(base.resolve("outside/deep"));
    Files.createSymbolicLink(lake.resolve("link"), deep);
    Path resolved = Sandbox.real(lake.resolve("link/../escape"));
    assertThat(resolved).isEqualTo(base.resolve("outside").toRealPath().resolve("escape"));
    Sandbox sandbox = new Sandbox(lake);
    assertThat(sandbox.contains(lake.resolve("link/../escape"))).isFalse();
    assertThat(sandbox.containsLocation("file:" + lake + "/link/../escape/x.parquet")).isFalse();
    assertThat(sandbox.contains(lake.resolve("t/../u/x"))).isTrue();
  }

  @Test
  void aDanglingLinkOnTheWayIsNoPlace() throws Exception {
    Path lake = Files.createDirectories(base.resolve("lake"));
    Files.createSymbolicLink(lake.resolve("dangling"), base.resolve("missing"));
    assertThat(Sandbox.real(lake.resolve("dangling/x"))).isNull();
    assertThat(new Sandbox(lake).contains(lake.resolve("dangling/x"))).isFalse();
    UnaryOperator<String> canonical =
        new LocalStore(LakeLocation.parse(lake.toString())).canonicalizer();
    assertThat(canonical.apply("file:" + lake + "/dangling/x")).doesNotStartWith("file:");
  }
}
