package dev.floe.planner.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store of decoded small files stays within its memory bound, lets the least recently used
 * files go first, never keeps one file that would take a large part of it, and hands out copies
 * that the reader's reuse of its vectors cannot change.
 */
class SmallFilesTest {
  private static final Types.StructType COLUMNS =
      Types.StructType.of(Types.NestedField.optional(1, "s", Types.StringType.get()));

  @AfterEach
  void forget() {
    SmallFiles.clear();
  }

  @Test
  void staysWithinItsBoundLettingTheLeastRecentlyUsedGo() {
    SmallFiles.clear();
    // each file: 100 strings of 10,000 characters, ~2 MB as estimated
    int files = (int) (SmallFiles.CAPACITY / (100L * 20_000)) + 10;
    for (int f = 0; f < files; f++) {
      SmallFiles.keep(key(f), List.of(SmallFiles.copy(strings(100, 10_000, f))));
      if (f > 0) {
        assertThat(SmallFiles.get(key(0))).as("touched, so kept").isNotNull();
      }
    }
    assertThat(SmallFiles.size()).isLessThan(files).isGreaterThan(1);
    assertThat(SmallFiles.get(key(0))).isNotNull();
    assertThat(SmallFiles.get(key(1))).as("least recently used").isNull();
    assertThat(SmallFiles.get(key(files - 1))).isNotNull();
  }

  @Test
  void aFileTooLargeForTheStoreIsReturnedButNotKept() {
    SmallFiles.clear();
    int length = (int) (SmallFiles.CAPACITY / 4 / 2 / 100) + 1_000;
    List<ColumnBatch> kept =
        SmallFiles.keep(key(7), List.of(SmallFiles.copy(strings(100, length, 7))));
    assertThat(kept).hasSize(1);
    assertThat(SmallFiles.get(key(7))).isNull();
    assertThat(SmallFiles.size()).isZero();
  }

  @Test
  void copiesAreOfTheBatchSizeAndIndependentOfTheReadersVectors() {
    ColumnBatch read = strings(3, 4, 1);
    ColumnVector longs = new ColumnVector(ColumnVector.Kind.LONG);
    longs.reset(4096);
    longs.set(0, 5L);
    longs.setNull(1);
    longs.set(2, -7L);
    ColumnBatch batch = new ColumnBatch(new ColumnVector[] {read.vectors[0], longs}, 3, 40);
    ColumnBatch copy = SmallFiles.copy(batch);
    longs.set(0, 99L);
    read.vectors[0].objects[0] = "changed";
    assertThat(copy.size).isEqualTo(3);
    assertThat(copy.firstPosition).isEqualTo(40);
    assertThat(copy.vectors[1].longs).hasSize(3);
    assertThat(copy.value(1, 0)).isEqualTo(5L);
    assertThat(copy.value(1, 1)).isNull();
    assertThat(copy.value(1, 2)).isEqualTo(-7L);
    assertThat(copy.value(0, 0)).isEqualTo("1:0:");
  }

  private static SmallFiles.Key key(int file) {
    return new SmallFiles.Key(
        "file:/lake/t/data/" + file + ".parquet", 1000 + file, 100, COLUMNS, null);
  }

  private static ColumnBatch strings(int rows, int length, int file) {
    ColumnVector vector = new ColumnVector(ColumnVector.Kind.OBJECT);
    vector.reset(4096);
    for (int row = 0; row < rows; row++) {
      String prefix = file + ":" + row + ":";
      vector.set(row, prefix + "x".repeat(Math.max(0, length - prefix.length())));
    }
    return new ColumnBatch(new ColumnVector[] {vector}, rows, 0);
  }
}
