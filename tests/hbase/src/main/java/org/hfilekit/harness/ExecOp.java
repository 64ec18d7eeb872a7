package org.hfilekit.harness;

import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Cluster script op {"op":"exec","table":T,"argv":[...],"stdout":FILE}: runs a command while the
 * cluster is up, for a tool that only reads the table's directory (e.g. hfile-bulkload reading
 * the regions HBase just created), so that one HBase start covers create, tool and load. The
 * command's stdout goes to FILE, its stderr to the harness's; a non-zero exit fails the script.
 * Prints {"kind":"exec","exit":0}.
 */
final class ExecOp {
  private ExecOp() {}

  static void run(JsonObject op, PrintStream out) throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>();
    for (JsonElement e : op.getAsJsonArray("argv")) {
      argv.add(e.getAsString());
    }
    ProcessBuilder pb = new ProcessBuilder(argv)
      .redirectOutput(new File(op.get("stdout").getAsString()))
      .redirectError(ProcessBuilder.Redirect.INHERIT);
    int exit = pb.start().waitFor();
    if (exit != 0) {
      throw new IOException("exec " + argv + " exited with " + exit);
    }
    out.println("{\"kind\":\"exec\",\"exit\":0}");
  }
}
