package dev.floe.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package layout of ARCHITECTURE.md, checked on the compiled classes of the planner and the
 * driver: no package cycles, dependencies running one way (the SPI, the name resolvers and the
 * session state at the bottom of the planner; the planner below the driver; each kind of command on
 * its own), storage reached only through the catalog. The examples module checks its own rule.
 */
class ArchitectureTest {
  private static JavaClasses floe;

  @BeforeAll
  static void importClasses() {
    floe =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.floe");
  }

  /**
   * No cycles between packages. The generated parser and the statement nodes it builds ({@code
   * planner.parser} and its sub-packages) are one unit by construction, so dependencies among them
   * are not counted.
   */
  @Test
  void packagesHaveNoCycles() {
    slices()
        .matching("dev.floe.(**)")
        .should()
        .beFreeOfCycles()
        .ignoreDependency(
            resideInAPackage("dev.floe.planner.parser.."),
            resideInAPackage("dev.floe.planner.parser.."))
        .check(floe);
  }

  @Test
  void onlyThePublicApiDependsOnTheRootPackage() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.floe")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.floe")
        .check(floe);
  }

  @Test
  void thePlannerKnowsNothingOfJdbcTransactionsOrStorage() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.floe.planner..", "dev.floe.error..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.floe.jdbc..",
            "dev.floe.command..",
            "dev.floe.txn..",
            "dev.floe.storage..",
            "dev.floe.config..")
        .check(floe);
  }

  /**
   * The bottom of the planner, each package using no other package of Floe but those named: the SPI
   * the driver's storage implements, the name resolvers over it, the session state written in both,
   * and the types.
   */
  @Test
  void theSpiNamesSessionAndTypesStandOnOnlyWhatIsBelowThem() {
    dependsOnlyOn("dev.floe.planner.spi", "dev.floe.error");
    dependsOnlyOn("dev.floe.planner.name", "dev.floe.planner.spi", "dev.floe.error");
    dependsOnlyOn(
        "dev.floe.planner.session",
        "dev.floe.planner.name",
        "dev.floe.planner.spi",
        "dev.floe.error");
    dependsOnlyOn("dev.floe.planner.type", "dev.floe.error");
    dependsOnlyOn("dev.floe.planner.function", "dev.floe.error");
  }

  /** Classes of {@code layer} use no class of Floe outside it and the {@code allowed} packages. */
  private static void dependsOnlyOn(String layer, String... allowed) {
    String[] own = new String[allowed.length + 1];
    own[0] = layer + "..";
    for (int i = 0; i < allowed.length; i++) {
      own[i + 1] = allowed[i] + "..";
    }
    noClasses()
        .that()
        .resideInAPackage(layer + "..")
        .should()
        .dependOnClassesThat(resideInAPackage("dev.floe..").and(not(resideInAnyPackage(own))))
        .check(floe);
  }

  @Test
  void runtimesStandBelowTheAdapterAndTheWriteRuntimeOnTheScanRuntime() {
    noClasses()
        .that()
        .resideInAPackage("dev.floe.planner.scan..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.floe.planner.adapter..", "dev.floe.planner.write..", "dev.floe.planner.prepare..")
        .check(floe);
    // The write runtime reads the files it rewrites through the scan runtime, never the reverse.
    noClasses()
        .that()
        .resideInAPackage("dev.floe.planner.write..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.floe.planner.adapter..", "dev.floe.planner.prepare..")
        .check(floe);
  }

  /**
   * One read path: table data is read by the scan runtime alone, queries and rewrites ({@code
   * optimize}, copy-on-write) alike, with its decoder, delete cache and cancellation. Iceberg's own
   * readers of data and its generic delete filter appear nowhere else.
   */
  @Test
  void onlyTheScanRuntimeReadsTableData() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.floe.planner.scan..")
        .should()
        .dependOnClassesThat()
        .haveNameMatching(
            "org\\.apache\\.iceberg\\.(data\\.(GenericDeleteFilter|DeleteFilter|IcebergGenerics"
                + "|GenericReader|parquet\\.(GenericParquetReaders|InternalReader))"
                + "|parquet\\.Parquet\\$ReadBuilder)(\\$.*)?")
        .check(floe);
  }

  @Test
  void commandsAndMetadataReachTheConnectionOnlyThroughTheirInterfaces() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.floe.command..", "dev.floe.jdbc.meta..", "dev.floe.jdbc.forwarding..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.floe.jdbc")
        .check(floe);
  }

  /** DDL, row writes, procedures and introspection share only the command package's interfaces. */
  @Test
  void eachKindOfCommandStandsAlone() {
    String[] kinds = {"ddl", "dml", "procedure", "introspection"};
    for (String kind : kinds) {
      String[] others =
          java.util.Arrays.stream(kinds)
              .filter(other -> !other.equals(kind))
              .map(other -> "dev.floe.command." + other + "..")
              .toArray(String[]::new);
      noClasses()
          .that()
          .resideInAPackage("dev.floe.command." + kind + "..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(others)
          .check(floe);
    }
  }

  /**
   * The lake's files are reached through storage alone (local and S3 alike). The one other user of
   * files is the spill of joins, sorts and aggregates (SpillFiles): scratch files of one statement
   * in the JVM's temp folder, never the lake's, local whatever the lake is.
   */
  @Test
  void onlyStorageTouchesFiles() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.floe.storage..")
        .and()
        .haveNameNotMatching("dev\\.floe\\.planner\\.session\\.SpillFiles(\\$.*)?")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("java.nio.file..")
        .check(floe);
  }

  @Test
  void nothingButTheErrorCatalogNamesSqlStates() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.floe.error..")
        .should()
        .callConstructor(java.sql.SQLException.class, String.class, String.class)
        .orShould()
        .callConstructor(java.sql.SQLException.class, String.class, String.class, Throwable.class)
        .orShould()
        .callConstructor(java.sql.SQLWarning.class, String.class, String.class)
        .check(floe);
  }
}
