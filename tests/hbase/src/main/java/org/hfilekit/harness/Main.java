package org.hfilekit.harness;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Entry point: {@code Main gen|read|cluster|tabledesc ...}. See tests/hbase/README.md. */
public final class Main {
  private Main() {}

  public static void main(String[] argv) throws Exception {
    if (argv.length == 0) {
      usage();
      System.exit(2);
    }
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
      StandardCharsets.UTF_8);
    Args args = new Args(argv, 1);
    try {
      switch (argv[0]) {
        case "gen":
          GenCommand.run(args);
          break;
        case "read":
          ReadCommand.run(args, out);
          break;
        case "bench":
          BenchCommand.run(args, out);
          break;
        case "tabledesc":
          TableDescCommand.run(args, out);
          break;
        case "midkey": MidKeyCommand.run(args, out); break;
        case "tsvparse": TsvParseCommand.run(args, out); break;
        case "hpp": HppCommand.run(args, out); break;
        case "cluster":
          ClusterCommand.run(args, out);
          break;
        default:
          usage();
          System.exit(2);
      }
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      usage();
      System.exit(2);
    } finally {
      out.flush();
    }
    // Hadoop/HBase may leave non-daemon threads behind; the work is done.
    System.exit(0);
  }

  private static void usage() {
    System.err.println("usage:\n"
      + "  Main gen --out DIR --name NAME [--compression C] [--codec-class CLASS] [--encoding E]\n"
      + "           [--bloom B] [--bloom-prefix-length N] [--bloom-block-size N] [--checksum T]\n"
      + "           [--bytes-per-checksum N] [--block-size N] [--tags true|false]\n"
      + "           [--compress-tags true|false] [--index-max-size N] [--index-min-entries N]\n"
      + "           [--cells N] [--seed S] [--value-max N] [--large-value N] [--family F]\n"
      + "           [--cells-from CELLS.jsonl]\n"
      + "  Main read FILE... [--probes PROBEFILE] [--seeks SEEKFILE] [--out-dir DIR]\n"
      + "  Main cluster --root DIR --script FILE\n"
      + "  Main tabledesc TABLE_DIR\n"
      + "  Main hpp --modes M1,M2,... [--out-dir DIR] FILE...\n"
      + "  Main bench --dir DIR --work DIR --compression C [--level L] [--encoding E] [--ops LIST]\n"
      + "             [--scan-file HFILE] [--reps N] [--warmup N]");
  }
}
