package org.hfilekit.harness;

import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.FSTableDescriptors;

/**
 * {@code tabledesc TABLE_DIR}: loads the table's descriptor with HBase's own
 * {@code FSTableDescriptors.getTableDescriptorFromFs(fs, tableDir)} (the read-only path every
 * RegionServer uses on region open: newest {@code .tableinfo*} by name, half-written and
 * malformed files skipped) and prints it as one canonical JSON line:
 *
 * <pre>
 * {"table":"ns:q","values":{k:v,...},"families":[{"name":n,"values":{...},"configuration":{...}},...]}
 * </pre>
 *
 * keys sorted, every byte string rendered with Bytes.toStringBinary, families in the
 * descriptor's (name) order. hfilekit's schema check prints the same form from its own reader.
 * Exit 1 with a message when HBase finds no readable descriptor.
 */
final class TableDescCommand {
  private TableDescCommand() {}

  static void run(Args args, PrintStream out) throws Exception {
    args.checkAllUsed();
    if (args.positional().size() != 1) {
      throw new IllegalArgumentException("tabledesc takes one TABLE_DIR");
    }
    String dir = args.positional().get(0);
    Configuration conf = HBaseConfiguration.create();
    Path tableDir = new Path(new java.io.File(dir).getAbsoluteFile().toURI());
    FileSystem fs = tableDir.getFileSystem(conf);
    TableDescriptor td = FSTableDescriptors.getTableDescriptorFromFs(fs, tableDir);
    if (td == null) {
      System.err.println("tabledesc: HBase found no readable descriptor under " + tableDir);
      out.flush();
      System.exit(1);
    }
    out.println(json(td));
  }

  static String json(TableDescriptor td) {
    StringBuilder sb = new StringBuilder(1024);
    sb.append("{\"table\":").append(Json.str(td.getTableName().getNameAsString()));
    sb.append(",\"values\":");
    appendBytesMap(sb, td.getValues());
    sb.append(",\"families\":[");
    ColumnFamilyDescriptor[] families = td.getColumnFamilies();
    for (int i = 0; i < families.length; i++) {
      ColumnFamilyDescriptor f = families[i];
      sb.append(i == 0 ? "" : ",").append("{\"name\":").append(Json.bytes(f.getName()));
      sb.append(",\"values\":");
      appendBytesMap(sb, f.getValues());
      sb.append(",\"configuration\":");
      TreeMap<String, String> conf = new TreeMap<>();
      for (Map.Entry<String, String> e : f.getConfiguration().entrySet()) {
        conf.put(Bytes.toStringBinary(Bytes.toBytes(e.getKey())),
          Bytes.toStringBinary(Bytes.toBytes(e.getValue())));
      }
      appendSorted(sb, conf);
      sb.append('}');
    }
    return sb.append("]}").toString();
  }

  private static void appendBytesMap(StringBuilder sb,
    Map<Bytes, Bytes> m) {
    // Sorted by the rendered key (our side sorts the same strings).
    TreeMap<String, String> sorted = new TreeMap<>();
    for (Map.Entry<Bytes, Bytes> e : m.entrySet()) {
      sorted.put(Bytes.toStringBinary(e.getKey().copyBytes()),
        Bytes.toStringBinary(e.getValue().copyBytes()));
    }
    appendSorted(sb, sorted);
  }

  private static void appendSorted(StringBuilder sb, TreeMap<String, String> m) {
    sb.append('{');
    boolean first = true;
    for (Map.Entry<String, String> e : m.entrySet()) {
      sb.append(first ? "" : ",").append(Json.str(e.getKey())).append(':')
        .append(Json.str(e.getValue()));
      first = false;
    }
    sb.append('}');
  }
}
