package dev.floe.jdbc.meta;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MetadataPatternTest {
  @Test
  void nullAndPercentMatchEveryName() {
    assertThat(MetadataPattern.of(null).matches("anything")).isTrue();
    assertThat(MetadataPattern.of("%").matches("")).isTrue();
  }

  @Test
  void percentMatchesAnyRunAndUnderscoreOneCharacter() {
    MetadataPattern pattern = MetadataPattern.of("sa_es%");
    assertThat(pattern.matches("sales")).isTrue();
    assertThat(pattern.matches("sales.eu")).isTrue();
    assertThat(pattern.matches("saless")).isTrue();
    assertThat(pattern.matches("sles")).isFalse();
    assertThat(pattern.matches("Sales")).isFalse();
  }

  @Test
  void theEscapeMakesWildcardsLiteral() {
    MetadataPattern pattern = MetadataPattern.of("a\\_b\\%");
    assertThat(pattern.matches("a_b%")).isTrue();
    assertThat(pattern.matches("aXb%")).isFalse();
    assertThat(pattern.matches("a_bcd")).isFalse();
    assertThat(MetadataPattern.of("a\\\\b").matches("a\\b")).isTrue();
  }

  @Test
  void regexCharactersAreOrdinaryCharacters() {
    assertThat(MetadataPattern.of("a.b").matches("a.b")).isTrue();
    assertThat(MetadataPattern.of("a.b").matches("axb")).isFalse();
    assertThat(MetadataPattern.of("(x)*[y]").matches("(x)*[y]")).isTrue();
  }
}
