package dev.floe.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.name.TableNames.Part;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resolving a table name examines only the folders that spell it: every statement resolves its
 * names (a kept plan checks them again before each run), so a lake of many tables must not make
 * each statement look into all of them. The answers stay those of a resolver that looks at all.
 */
class NameLookupCostTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.optional(1, "x", Types.IntegerType.get()));

  @TempDir Path root;

  private CountingStore store;
  private TableNames names;

  @BeforeEach
  void lake() throws Exception {
    FolderCatalog setUp = new FolderCatalog(LakeLocation.parse(root.toString()));
    for (int i = 0; i < 40; i++) {
      create(setUp, List.of("t" + i));
      create(setUp, List.of("sales", "s" + i));
    }
    create(setUp, List.of("Twin"));
    create(setUp, List.of("twin"));
    Files.createDirectories(root.resolve("plain_folder"));
    store = new CountingStore(new LocalStore(LakeLocation.parse(root.toString())));
    names = new TableNames(new FolderCatalog(store));
  }

  private static void create(FolderCatalog catalog, List<String> path) {
    catalog
        .newCreateTableTransaction(path, SCHEMA, PartitionSpec.unpartitioned(), Map.of())
        .commitTransaction();
  }

  @Test
  void anUnqualifiedNameExaminesOnlyTheFoldersThatSpellIt() {
    assertThat(names.table(List.of(), List.of(Part.of("T7")))).containsExactly("t7");
    assertThat(store.examined).singleElement().matches(folder -> folder.endsWith("/t7"));
  }

  @Test
  void aQualifiedNameExaminesOnlyItsSchemaAndItsTable() {
    assertThat(names.table(List.of(), List.of(Part.of("SALES"), Part.of("s12"))))
        .containsExactly("sales", "s12");
    assertThat(store.examined).hasSizeLessThanOrEqualTo(4).noneMatch(f -> f.matches(".*/t\\d+$"));
  }

  @Test
  void theAnswersAreThoseOfLookingAtEveryFolder() {
    assertThat(names.table(List.of(), List.of(new Part("t3", true)))).containsExactly("t3");
    assertThat(names.table(List.of(), List.of(new Part("T3", true)))).isNull();
    assertThat(names.table(List.of(), List.of(Part.of("plain_folder")))).isNull();
    assertThat(names.table(List.of(), List.of(Part.of("nothing")))).isNull();
    assertThat(names.table(List.of(), List.of(new Part("twin", true)))).containsExactly("twin");
    assertThatThrownBy(() -> names.table(List.of(), List.of(Part.of("TWIN"))))
        .isInstanceOf(FloeException.class)
        .satisfies(
            e -> assertThat(((FloeException) e).error()).isEqualTo(FloeError.AMBIGUOUS_NAME));
    assertThat(names.table(List.of("sales"), List.of(Part.of("S5"))))
        .containsExactly("sales", "s5");
  }

  /** A store that records which folders were asked whether they hold a table. */
  private static final class CountingStore implements LakeStore {
    private final LakeStore store;
    final List<String> examined = new ArrayList<>();

    CountingStore(LakeStore store) {
      this.store = store;
    }

    @Override
    public LakeLocation root() {
      return store.root();
    }

    @Override
    public FileIO io() {
      return store.io();
    }

    @Override
    public boolean contains(String location) {
      return store.contains(location);
    }

    @Override
    public List<String> childFolders(String folder) {
      return store.childFolders(folder);
    }

    @Override
    public List<String> childFolders(String folder, Predicate<String> named) {
      return store.childFolders(folder, named);
    }

    @Override
    public boolean isTable(String folder) {
      examined.add(folder);
      return store.isTable(folder);
    }

    @Override
    public LakeTableOperations operations(String folder) {
      return store.operations(folder);
    }

    @Override
    public boolean isAvailable() {
      return store.isAvailable();
    }

    @Override
    public void deleteTree(String folder) {
      store.deleteTree(folder);
    }

    @Override
    public void deleteTree(String folder, Predicate<String> keep) {
      store.deleteTree(folder, keep);
    }

    @Override
    public java.util.function.UnaryOperator<String> canonicalizer() {
      return store.canonicalizer();
    }

    @Override
    public void checkCanCommit() {
      store.checkCanCommit();
    }

    @Override
    public void close() {
      store.close();
    }
  }
}
