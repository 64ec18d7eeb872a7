package org.hfilekit.harness;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.hfile.HFilePrettyPrinter;

/**
 * hpp: runs HBase's own HFilePrettyPrinter in this JVM, once per (file, mode), with its stdout
 * and stderr captured. Many files and modes in one JVM keep the oracle fast (one start).
 *
 * <pre>
 *   hpp --modes "-m,-s,-b,-h,-s -d" --out-dir DIR FILE...
 *       -> DIR/NAME.MODE.out, DIR/NAME.MODE.err, DIR/NAME.MODE.rc
 * </pre>
 *
 * NAME is the file name (without .hfile), MODE the mode's flags without dashes and blanks
 * ("-s -d" -> "sd"). Each run is `HFilePrettyPrinter MODE-FLAGS -f FILE`, with FILE passed as
 * given (HPP prints paths as it got them). Without --out-dir, one file and one mode: the output
 * goes to stdout and stderr.
 *
 * <p>With {@code --root DIR --region NAME}, each mode also runs as {@code HFilePrettyPrinter
 * MODE-FLAGS -r NAME} with hbase.rootdir = DIR (HPP finds the region's store files itself),
 * into DIR/region.MODE.*.
 */
final class HppCommand {
  private HppCommand() {}

  static void run(Args a, PrintStream stdout) throws IOException {
    String modes = a.require("modes");
    String outDir = a.get("out-dir", null);
    String root = a.get("root", null);
    String region = a.get("region", null);
    a.checkAllUsed();
    if ((root == null) != (region == null)) {
      throw new IllegalArgumentException("hpp: --root and --region go together");
    }
    // Each entry: {output name, "-f" or "-r", file or region name}.
    List<String[]> targets = new ArrayList<>();
    for (String file : a.positional()) {
      String base = Paths.get(file).getFileName().toString().replaceFirst("\\.hfile$", "");
      targets.add(new String[] { base, "-f", file });
    }
    if (region != null) {
      targets.add(new String[] { "region", "-r", region });
    }
    List<String[]> modeFlags = new ArrayList<>();
    for (String m : modes.split(",")) {
      modeFlags.add(m.trim().split("\\s+"));
    }
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("usage: hpp --modes M1,M2,... [--out-dir DIR] FILE...");
    }
    if (outDir == null && (targets.size() > 1 || modeFlags.size() > 1)) {
      throw new IllegalArgumentException("hpp: several files or modes need --out-dir");
    }
    Configuration conf = HBaseConfiguration.create();
    Codecs.configure(conf, null, null);
    if (root != null) {
      conf.set("hbase.rootdir", Paths.get(root).toAbsolutePath().toUri().toString());
    }
    for (String[] target : targets) {
      for (String[] flags : modeFlags) {
        ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
        ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
        int rc;
        try (PrintStream out = new PrintStream(outBuf, true, StandardCharsets.UTF_8.name());
          PrintStream err = new PrintStream(errBuf, true, StandardCharsets.UTF_8.name())) {
          HFilePrettyPrinter pp = new HFilePrettyPrinter(new Configuration(conf));
          pp.setPrintStreams(out, err);
          List<String> argv = new ArrayList<>(Arrays.asList(flags));
          argv.add(target[1]);
          argv.add(target[2]);
          try {
            rc = pp.run(argv.toArray(new String[0]));
          } catch (RuntimeException e) {
            err.println("HFilePrettyPrinter threw " + e);
            rc = 99;
          }
        }
        if (outDir == null) {
          stdout.write(outBuf.toByteArray());
          stdout.flush();
          System.err.write(errBuf.toByteArray());
          System.err.flush();
          if (rc != 0) {
            System.exit(1);
          }
          continue;
        }
        String base = target[0];
        String tag = String.join("", flags).replace("-", "");
        Files.createDirectories(Paths.get(outDir));
        Files.write(Paths.get(outDir, base + "." + tag + ".out"), outBuf.toByteArray());
        Files.write(Paths.get(outDir, base + "." + tag + ".err"), errBuf.toByteArray());
        Files.write(Paths.get(outDir, base + "." + tag + ".rc"),
          (rc + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
