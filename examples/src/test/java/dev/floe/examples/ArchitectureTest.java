package dev.floe.examples;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The examples are programs to copy from, so they use Floe as a user does: through JDBC and the
 * public API in {@code dev.floe} (ARCHITECTURE.md, "Packages, and the direction of their
 * dependencies"), never the driver's or the planner's insides.
 */
class ArchitectureTest {
  private static final JavaClasses EXAMPLES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.floe.examples");

  @Test
  void theExamplesUseOnlyFloesPublicApi() {
    noClasses()
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.floe..")
                .and(not(resideInAnyPackage("dev.floe", "dev.floe.examples.."))))
        .check(EXAMPLES);
  }

  @Test
  void theExamplesAreFound() {
    org.assertj.core.api.Assertions.assertThat(EXAMPLES.contain(QuickStart.class)).isTrue();
  }
}
