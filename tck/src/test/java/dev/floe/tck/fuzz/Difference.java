package dev.floe.tck.fuzz;

/**
 * A disagreement found by an oracle: between Floe and the reference, between Floe and Iceberg's
 * reader, or between two ways of asking Floe the same question. Its signature (the oracle and the
 * kind of disagreement, with the SQLState of an error) is what a shrunk history must reproduce.
 */
final class Difference extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String oracle;
  private final String signature;

  Difference(String oracle, String kind, String detail) {
    super(oracle + " (" + kind + "): " + detail);
    this.oracle = oracle;
    this.signature = oracle + ":" + kind;
  }

  Difference(String oracle, String kind, String detail, Throwable cause) {
    super(oracle + " (" + kind + "): " + detail, cause);
    this.oracle = oracle;
    this.signature = oracle + ":" + kind;
  }

  String oracle() {
    return oracle;
  }

  /** What a reproduction must show again: the oracle and the kind of disagreement. */
  String signature() {
    return signature;
  }
}
