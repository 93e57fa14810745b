package dev.floe.planner.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerator;
import org.junit.jupiter.api.Test;

/** The spill files of a hash join: values read back equal to those written, and files deleted. */
class SpillFilesTest {
  private static Object roundTrip(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      SpillFiles.write(out, value);
    }
    return SpillFiles.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
  }

  @Test
  void everyKindOfValueARowHoldsReadsBackEqual() throws IOException {
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put("a", 1);
    map.put("b", null);
    Object[] row = {
      null,
      true,
      false,
      7,
      -8L,
      1.5d,
      Double.NaN,
      2.5f,
      new BigDecimal("-123.4500"),
      new BigDecimal("123456789012345678901234567890.12"),
      "",
      "ünïcode " + "x".repeat(300),
      (short) 3,
      (byte) 4,
      'c',
      UUID.randomUUID(),
      new ByteString(new byte[] {1, 2, 3}),
      List.of(1, "two", 3L),
      map,
      new Object[] {1, null}
    };
    Object[] back = (Object[]) roundTrip(row);
    assertThat(back).hasSameSizeAs(row);
    for (int i = 0; i < row.length; i++) {
      if (row[i] instanceof Object[] nested) {
        assertThat((Object[]) back[i]).containsExactly(nested);
      } else {
        assertThat(back[i]).isEqualTo(row[i]);
      }
    }
    // the scale of a decimal is kept (1.50 and 1.5 are different values to equals)
    assertThat(((BigDecimal) back[8]).scale()).isEqualTo(4);
    assertThat((byte[]) roundTrip(new byte[] {9, 8})).containsExactly(9, 8);
  }

  @Test
  void aValueOfAnUnknownClassCannotBeSpilled() {
    assertThatThrownBy(() -> roundTrip(new Object[] {new StringBuilder("x")}))
        .isInstanceOf(SpillFiles.NotSpillable.class)
        .hasMessageContaining("java.lang.StringBuilder");
  }

  @Test
  void partitionsKeepEachRowUnderItsKeysPartitionAndAreDeletedWithTheirFolder() throws IOException {
    MemoryBudget memory = new MemoryBudget(1 << 20);
    SpillFiles.Folder folder = new SpillFiles.Folder("floe-join-", memory, "the join");
    SpillFiles.Partitions parts = new SpillFiles.Partitions(folder, 16, 1);
    for (long i = 0; i < 1000; i++) {
      parts.add(i % 50, new Object[] {i % 50, "row" + i});
    }
    parts.add(null, new Object[] {null, "no key"});
    parts.finish();
    assertThat(parts.nonEmpty()).isGreaterThan(8);
    Path path = folder.path();
    assertThat(path).isNotNull();
    assertThat(Files.isDirectory(path)).isTrue();
    long total = 0;
    for (int p = 0; p < 16; p++) {
      List<Object[]> rows = new ArrayList<>();
      try (Enumerator<Object[]> e = parts.<Object[]>rows(p).enumerator()) {
        while (e.moveNext()) {
          rows.add(e.current());
        }
      }
      assertThat(rows).hasSize((int) parts.count(p));
      for (Object[] r : rows) {
        assertThat(SpillFiles.partition(r[0], 1, 16)).as(Arrays.toString(r)).isEqualTo(p);
      }
      total += rows.size();
    }
    assertThat(total).isEqualTo(1001);
    // another seed sends keys elsewhere: a partition split again does not stay whole
    long moved = 0;
    for (long k = 0; k < 50; k++) {
      moved += SpillFiles.partition(k, 1, 16) != SpillFiles.partition(k, 2, 16) ? 1 : 0;
    }
    assertThat(moved).isGreaterThan(25);
    assertThat(memory.onDisk()).isEqualTo(memory.spilledBytes()).isGreaterThan(1000 * 8);
    parts.delete(3);
    assertThat(memory.onDisk()).isLessThan(memory.spilledBytes());
    folder.delete();
    assertThat(Files.exists(path)).isFalse();
    assertThat(memory.onDisk()).isZero();
  }

  @Test
  void filesPastTheSpillLimitFailWith53200NamingTheLimit() {
    MemoryBudget memory = new MemoryBudget(1 << 20, SpillLimit.ofBytes(4096));
    SpillFiles.Folder folder = new SpillFiles.Folder("floe-sort-", memory, "the sort");
    SpillFiles.Partitions parts = new SpillFiles.Partitions(folder, 1, 0);
    try {
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 1000; i++) {
                  parts.add(null, new Object[] {i, "a row of some length"});
                }
              })
          .isInstanceOf(FloeException.class)
          .hasMessageContaining("the sort")
          .hasMessageContaining("spill limit of 4096 bytes")
          .hasMessageContaining("spillLimit")
          .extracting(e -> ((FloeException) e).sqlState())
          .isEqualTo("53200");
      // every byte it holds counts: nothing more is written while its files stay
      assertThat(memory.onDisk()).isGreaterThan(4096).isLessThan(4096 + 100);
    } finally {
      folder.delete();
    }
    assertThat(memory.onDisk()).isZero();
  }

  @Test
  void aSpillLimitOfZeroRefusesTheFirstFile() {
    MemoryBudget memory = new MemoryBudget(1 << 20, SpillLimit.ofBytes(0));
    SpillFiles.Folder folder = new SpillFiles.Folder("floe-join-", memory, "the hash join j");
    SpillFiles.Partitions parts = new SpillFiles.Partitions(folder, 4, 0);
    assertThatThrownBy(() -> parts.add(1, new Object[] {1}))
        .isInstanceOf(FloeException.class)
        .hasMessageContaining("the hash join j")
        .hasMessageContaining("spillLimit=0");
    assertThat(folder.path()).isNull();
  }
}
