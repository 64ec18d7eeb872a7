package org.hfilekit.harness;

import java.io.File;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * {"op":"mapreduce","table":T,"tool":CopyTable|Export|Import|ImportTsv,"args":[ARG...]}: runs one of
 * HBase's MapReduce tools in this JVM, with the command line a user would give it after
 * `hbase org.apache.hadoop.hbase.mapreduce.TOOL` (generic -Dk=v options included), against the
 * running local cluster, as a LocalJobRunner job on the local file system. Prints
 * {"kind":"mapreduce","tool":TOOL,"exit":N}; a non-zero exit fails the script.
 *
 * The tools are loaded by name: they live in hbase-mapreduce, which only the extra classpath of
 * mapreduce/pom.xml (HARNESS_EXTRA_CLASSPATH) has, so every other harness command builds and
 * runs without it.
 */
final class MapReduceTools {
  private MapReduceTools() {}

  static void run(LocalCluster cluster, JsonObject op, PrintStream out) throws Exception {
    String name = op.get("tool").getAsString();
    if (!name.equals("CopyTable") && !name.equals("Export") && !name.equals("Import")
        && !name.equals("ImportTsv")) {
      throw new IllegalArgumentException("mapreduce: unknown tool " + name);
    }
    Tool tool;
    try {
      tool = (Tool) Class.forName("org.apache.hadoop.hbase.mapreduce." + name)
        .getDeclaredConstructor().newInstance();
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("mapreduce: hbase-mapreduce is not on the classpath "
        + "(build mapreduce/pom.xml and set HARNESS_EXTRA_CLASSPATH)", e);
    }
    List<String> args = new ArrayList<>();
    for (JsonElement e : op.getAsJsonArray("args")) {
      args.add(e.getAsString());
    }
    if (name.equals("ImportTsv")) {  // its counters printed too (ImportTsvJob)
      int rc = ImportTsvJob.run(jobConf(cluster), args.toArray(new String[0]), out);
      if (rc != 0) {
        throw new IllegalStateException("mapreduce: ImportTsv " + args + " exited " + rc);
      }
      return;
    }
    int rc = ToolRunner.run(jobConf(cluster), tool, args.toArray(new String[0]));
    out.println("{\"kind\":\"mapreduce\",\"tool\":" + Json.str(name) + ",\"exit\":" + rc + "}");
    if (rc != 0) {
      throw new IllegalStateException("mapreduce: " + name + " " + args + " exited " + rc);
    }
  }

  /**
   * The cluster's client configuration (ZooKeeper quorum and port) plus what a LocalJobRunner
   * job needs, with every scratch directory beside the HBase root (DIR/mapred), not in /tmp.
   */
  private static Configuration jobConf(LocalCluster cluster) {
    Configuration conf = new Configuration(cluster.conf());
    File dir = new File(new File(new Path(conf.get(HConstants.HBASE_DIR)).toUri().getPath())
      .getParentFile(), "mapred");
    conf.set("mapreduce.framework.name", "local");
    conf.set("hadoop.tmp.dir", new File(dir, "tmp").getAbsolutePath());
    conf.set("mapreduce.cluster.local.dir", new File(dir, "local").getAbsolutePath());
    conf.set("yarn.app.mapreduce.am.staging-dir", new File(dir, "staging").getAbsolutePath());
    // One map task at a time: the machine is small and the tables are tiny.
    conf.setInt("mapreduce.local.map.tasks.maximum", 1);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 1);
    return conf;
  }
}
