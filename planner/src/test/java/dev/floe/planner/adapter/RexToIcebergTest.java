package dev.floe.planner.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.planner.type.LakeTypeSystem;
import dev.floe.planner.type.LakeTypes;
import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.TimestampString;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class RexToIcebergTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(4, "x", Types.DoubleType.get()),
          Types.NestedField.optional(5, "amount", Types.DecimalType.of(9, 2)));

  private final JavaTypeFactoryImpl types = new JavaTypeFactoryImpl(LakeTypeSystem.INSTANCE);
  private final RexBuilder rex = new RexBuilder(types);
  private final RelDataType row = LakeTypes.rowType(types, SCHEMA);
  private final RexToIceberg translator =
      new RexToIceberg(rex, SCHEMA, List.of(0, 1, 2, 3, 4), ZoneOffset.UTC);

  private RexNode field(int i) {
    return rex.makeInputRef(row.getFieldList().get(i).getType(), i);
  }

  private RexNode number(long v) {
    return rex.makeExactLiteral(BigDecimal.valueOf(v));
  }

  @Test
  void comparisonsArePushedWithTheirNullCheck() {
    RexToIceberg.Split split =
        translator.split(rex.makeCall(SqlStdOperatorTable.NOT_EQUALS, field(0), number(5)));
    assertThat(split.remaining()).isEmpty();
    assertThat(split.pushed().toString()).contains("not_null(ref(name=\"id\"))").contains("!= 5");
  }

  @Test
  void untranslatableConjunctsStayAboveTheScanAndTheRestIsPushed() {
    RexNode upper =
        rex.makeCall(
            SqlStdOperatorTable.EQUALS,
            rex.makeCall(SqlStdOperatorTable.UPPER, field(1)),
            rex.makeLiteral("A"));
    RexNode condition =
        rex.makeCall(
            SqlStdOperatorTable.AND,
            upper,
            rex.makeCall(SqlStdOperatorTable.GREATER_THAN, field(0), number(10)));
    RexToIceberg.Split split = translator.split(condition);
    assertThat(split.remaining()).containsExactly(upper);
    assertThat(split.pushed().toString()).contains("ref(name=\"id\") > 10");
  }

  @Test
  void anOrIsPushedOnlyWhenEveryBranchTranslates() {
    RexNode upper =
        rex.makeCall(
            SqlStdOperatorTable.EQUALS,
            rex.makeCall(SqlStdOperatorTable.UPPER, field(1)),
            rex.makeLiteral("A"));
    RexNode or =
        rex.makeCall(
            SqlStdOperatorTable.OR,
            upper,
            rex.makeCall(SqlStdOperatorTable.EQUALS, field(0), number(1)));
    RexToIceberg.Split split = translator.split(or);
    assertThat(split.pushedAny()).isFalse();
    assertThat(split.remaining()).containsExactly(or);
  }

  @Test
  void likeWithAPlainPrefixBecomesTheRangeOfItsStringsAndOtherPatternsStay() {
    RexNode prefix = rex.makeCall(SqlStdOperatorTable.LIKE, field(1), rex.makeLiteral("ab%"));
    String pushed = translator.split(prefix).pushed().toString();
    assertThat(pushed).contains(">= \"ab\"").contains("< \"ac\"").doesNotContain("startsWith");
    RexNode not = rex.makeCall(SqlStdOperatorTable.NOT, prefix);
    assertThat(translator.split(not).pushed().toString())
        .contains("< \"ab\"")
        .contains(">= \"ac\"")
        .doesNotContain("startsWith");
    RexNode inner = rex.makeCall(SqlStdOperatorTable.LIKE, field(1), rex.makeLiteral("a_b%"));
    assertThat(translator.split(inner).remaining()).containsExactly(inner);
    // The character after U+D7FF is a surrogate: that prefix stays above the scan.
    RexNode high = rex.makeCall(SqlStdOperatorTable.LIKE, field(1), rex.makeLiteral("a\ud7ff%"));
    assertThat(translator.split(high).remaining()).containsExactly(high);
  }

  @Test
  void timestampLiteralsArePushedAsExactMicroseconds() {
    RexNode literal =
        rex.makeTimestampLiteral(new TimestampString("2024-02-29 23:59:59.123456"), 6);
    RexToIceberg.Split split =
        translator.split(rex.makeCall(SqlStdOperatorTable.GREATER_THAN, field(2), literal));
    assertThat(split.remaining()).isEmpty();
    assertThat(split.pushed().toString()).contains("1709251199123456");
  }

  @Test
  void floatingPointComparisonsAreNotPushedBecauseIcebergOrdersMinusZeroFirst() {
    RexNode cmp =
        rex.makeCall(SqlStdOperatorTable.EQUALS, field(3), rex.makeApproxLiteral(BigDecimal.ZERO));
    assertThat(translator.split(cmp).remaining()).containsExactly(cmp);
  }

  @Test
  void decimalLiteralsArePushedOnlyWhenExactAtTheColumnScale() {
    RexNode exact =
        rex.makeCall(
            SqlStdOperatorTable.EQUALS, field(4), rex.makeExactLiteral(new BigDecimal("1.5")));
    assertThat(translator.split(exact).remaining()).isEmpty();
    RexNode finer =
        rex.makeCall(
            SqlStdOperatorTable.EQUALS, field(4), rex.makeExactLiteral(new BigDecimal("1.555")));
    assertThat(translator.split(finer).remaining()).containsExactly(finer);
  }

  @Test
  void nullChecksArePushed() {
    RexNode isNull = rex.makeCall(SqlStdOperatorTable.IS_NULL, field(1));
    assertThat(translator.split(isNull).pushed().toString()).contains("is_null");
    RexNode notNull =
        rex.makeCall(SqlStdOperatorTable.NOT, rex.makeCall(SqlStdOperatorTable.IS_NULL, field(1)));
    RexToIceberg.Split split = translator.split(notNull);
    assertThat(split.remaining()).as(notNull + " -> " + split.pushed()).isEmpty();
    assertThat(split.pushed().toString()).as(notNull.toString()).contains("not_null");
  }
}
