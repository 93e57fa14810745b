package dev.floe.tck.fuzz;

import dev.floe.tck.fuzz.Ast.Expr;
import dev.floe.tck.fuzz.Ast.Select;
import java.util.ArrayList;
import java.util.List;

/** Simpler forms of a failing check's query, tried by the shrinker one at a time. */
final class Simplify {
  private Simplify() {}

  static List<Oracles.Check> of(Oracles.Check check) {
    List<Oracles.Check> result = new ArrayList<>();
    if (check instanceof Oracles.Differential) {
      for (Ast.Query q : queries(((Oracles.Differential) check).query())) {
        result.add(new Oracles.Differential(q));
      }
    } else if (check instanceof Oracles.Threads) {
      for (Ast.Query q : queries(((Oracles.Threads) check).query())) {
        result.add(new Oracles.Threads(q));
      }
    }
    return result;
  }

  /** Simpler queries: a side of a set operation, fewer items, a smaller or no WHERE. */
  static List<Ast.Query> queries(Ast.Query q) {
    List<Ast.Query> result = new ArrayList<>();
    if (q instanceof Ast.SetOp) {
      result.add(((Ast.SetOp) q).left());
      result.add(((Ast.SetOp) q).right());
      return result;
    }
    if (!(q instanceof Select)) {
      return result;
    }
    Select s = (Select) q;
    if (s.where() != null) {
      result.add(s.withWhere(null));
      for (Expr e : simpler(s.where())) {
        result.add(s.withWhere(e));
      }
    }
    if (!s.orderBy().isEmpty() && s.limit() == null) {
      result.add(s.withoutOrder());
    }
    if (s.items().size() > 1 && s.groupBy().isEmpty() && s.orderBy().isEmpty()) {
      for (int i = 0; i < s.items().size(); i++) {
        List<Expr> fewer = new ArrayList<>(s.items());
        fewer.remove(i);
        result.add(s.withItems(fewer));
      }
    }
    return result;
  }

  /** The parts of a predicate that might show the same difference on their own. */
  static List<Expr> simpler(Expr e) {
    List<Expr> result = new ArrayList<>();
    if (e instanceof Ast.Junction) {
      List<Expr> terms = ((Ast.Junction) e).terms();
      result.addAll(terms);
      for (Expr t : terms) {
        for (Expr s : simpler(t)) {
          List<Expr> replaced = new ArrayList<>(terms);
          replaced.set(terms.indexOf(t), s);
          result.add(new Ast.Junction(((Ast.Junction) e).op(), replaced));
        }
      }
    } else if (e instanceof Ast.Not) {
      result.add(((Ast.Not) e).arg());
      for (Expr s : simpler(((Ast.Not) e).arg())) {
        result.add(new Ast.Not(s));
      }
    } else if (e instanceof Ast.In && ((Ast.In) e).items().size() > 1) {
      Ast.In in = (Ast.In) e;
      for (int i = 0; i < in.items().size(); i++) {
        List<Expr> fewer = new ArrayList<>(in.items());
        fewer.remove(i);
        result.add(new Ast.In(in.arg(), fewer, in.not()));
      }
    }
    return result;
  }
}
