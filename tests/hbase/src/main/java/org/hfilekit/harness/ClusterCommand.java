package org.hfilekit.harness;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * cluster --root DIR --script FILE: starts a local HBase on DIR, runs the script's operations
 * (JSON lines, see tests/hbase/README.md), stops and leaves DIR/hbase behind. `scan` prints
 * canonical cell records. Byte strings in the script use Bytes.toStringBinary notation.
 */
final class ClusterCommand {
  private ClusterCommand() {}

  static void run(Args a, PrintStream out) throws Exception {
    File root = new File(a.require("root"));
    List<String> script = Files.readAllLines(Paths.get(a.require("script")), StandardCharsets.UTF_8);
    a.checkAllUsed();
    boolean stuck = false;
    try (LocalCluster cluster = new LocalCluster(root); Admin admin = cluster.connection().getAdmin()) {
      for (String line : script) {
        if (line.isBlank()) {
          continue;
        }
        JsonObject op = JsonParser.parseString(line).getAsJsonObject();
        TableName table = TableName.valueOf(op.get("table").getAsString());
        switch (op.get("op").getAsString()) {
          case "create":
            create(admin, table, op);
            break;
          case "put":
          case "delete":
            try (Table t = cluster.connection().getTable(table)) {
              if (op.get("op").getAsString().equals("put")) {
                t.put(put(op));
              } else {
                t.delete(delete(op));
              }
            }
            break;
          case "flush":
            admin.flush(table);
            break;
          case "compact":
            if (!compact(admin, table, op.has("major") && op.get("major").getAsBoolean(),
                op.has("timeout_s") ? op.get("timeout_s").getAsInt() : 0)) {
              out.println("{\"kind\":\"compact\",\"table\":" + Json.str(table.getNameAsString())
                + ",\"finished\":false}");
              stuck = true;
            }
            break;
          case "scan":
            if (!scan(cluster, table, !op.has("raw") || op.get("raw").getAsBoolean(),
                op.has("timeout_s") ? op.get("timeout_s").getAsInt() : 0,
                ClusterAdminOps.authorizations(op), out)) {
              stuck = true;
            }
            break;
          case "bulkload":
            bulkload(cluster, table, op, out);
            break;
          case "alter":
            alter(admin, table, op);
            break;
          case "describe":
            describe(admin, table, out);
            break;
          case "add_family":
            admin.addColumnFamily(table, family(op));
            break;
          case "delete_family":
            admin.deleteColumnFamily(table, bytes(op, "family"));
            break;
          case "disable":
            admin.disableTable(table);
            break;
          case "enable":
            admin.enableTable(table);
            break;
          case "mapreduce": MapReduceTools.run(cluster, op, out); break;
          case "meta_replace":
            metaReplace(cluster, table, op);
            break;
          case "split_point": case "regions": case "split_region": case "merge_regions":
            RegionOps.run(cluster, admin, table, op, out);
            break;
          case "split": ClusterAdminOps.split(admin, table, op); break;
          case "clone": ClusterAdminOps.snapshotClone(admin, table, op); break;
          case "compaction_switch": ClusterAdminOps.compactionSwitch(admin, op); break;
          case "vis_labels": ClusterAdminOps.visLabels(cluster.connection(), op); break;
          case "fs_table_online": case "shell_describe": case "get_row": case "create_namespace": CreateOps.run(cluster, admin, table, op, out); break;
          case "exec":
            ExecOp.run(op, out);
            break;
          default:
            throw new IllegalArgumentException("unknown op in script: " + line);
        }
      }
      if (stuck) {
        // A compaction or scan that never finishes keeps the RegionServer from stopping (it does
        // not react to interrupts): end the JVM without the clean shutdown; the root is left
        // unclean.
        out.flush();
        System.err.println("cluster: a compaction or scan did not finish; halting without shutdown");
        Runtime.getRuntime().halt(0);
      }
    }
  }

  /**
   * {"op":"meta_replace","table":T,"remove":[ENCODED...],"add":[REGION_DIR...]}: what HBCK2's
   * extraRegionsInMeta --fix (delete the rows of regions without a directory) and
   * addFsRegionsMissingInMeta (a row per .regioninfo, state CLOSED) do to hbase:meta.
   */
  private static void metaReplace(LocalCluster cluster, TableName table, JsonObject op)
      throws IOException {
    org.apache.hadoop.hbase.client.Connection conn = cluster.connection();
    java.util.Set<String> remove = new java.util.HashSet<>();
    for (JsonElement e : op.getAsJsonArray("remove")) {
      remove.add(e.getAsString());
    }
    for (org.apache.hadoop.hbase.client.RegionInfo ri :
        org.apache.hadoop.hbase.MetaTableAccessor.getTableRegions(conn, table, true)) {
      if (remove.contains(ri.getEncodedName())) {
        org.apache.hadoop.hbase.MetaTableAccessor.deleteRegionInfo(conn, ri);
      }
    }
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(new Configuration());
    List<org.apache.hadoop.hbase.client.RegionInfo> add = new java.util.ArrayList<>();
    for (JsonElement e : op.getAsJsonArray("add")) {
      add.add(org.apache.hadoop.hbase.regionserver.HRegionFileSystem.loadRegionInfoFileContent(
        fs, new Path(e.getAsString())));
    }
    org.apache.hadoop.hbase.MetaTableAccessor.addRegionsToMeta(conn, add, 1);
    try (Table meta = conn.getTable(TableName.META_TABLE_NAME)) {
      for (org.apache.hadoop.hbase.client.RegionInfo ri : add) {
        meta.put(new Put(ri.getRegionName()).addColumn(org.apache.hadoop.hbase.HConstants.CATALOG_FAMILY,
          org.apache.hadoop.hbase.HConstants.STATE_QUALIFIER, Bytes.toBytes("CLOSED")));
      }
    }
  }

  /**
   * {"op":"create","table":T,"families":[{"name":F,"compression":..,"encoding":..,"bloom":..,
   * "max_versions":N[,"set":{KEY:VALUE,...}][,"configuration":{KEY:VALUE,...}]}]}
   */
  private static void create(Admin admin, TableName table, JsonObject op) throws IOException {
    TableDescriptorBuilder tdb = TableDescriptorBuilder.newBuilder(table);
    for (JsonElement e : op.getAsJsonArray("families")) {
      JsonObject f = e.getAsJsonObject();
      ColumnFamilyDescriptorBuilder b = ColumnFamilyDescriptorBuilder.newBuilder(bytes(f, "name"))
        .setCompressionType(Compression.getCompressionAlgorithmByName(
          string(f, "compression", "none").toLowerCase(Locale.ROOT)))
        .setDataBlockEncoding(DataBlockEncoding.valueOf(string(f, "encoding", "NONE")))
        .setBloomFilterType(BloomType.valueOf(string(f, "bloom", "ROW")))
        .setMaxVersions(f.has("max_versions") ? f.get("max_versions").getAsInt() : 1);
      setValues(b, f);
      tdb.setColumnFamily(b.build());
    }
    if (op.has("splits")) {
      JsonArray splits = op.getAsJsonArray("splits");
      byte[][] keys = new byte[splits.size()][];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = Bytes.toBytesBinary(splits.get(i).getAsString());
      }
      admin.createTable(tdb.build(), keys);
    } else {
      admin.createTable(tdb.build());
    }
  }

  /**
   * {"op":"bulkload","table":T,"dir":D}: HBase's completebulkload (BulkLoadHFilesTool) of D,
   * whose subdirectories are named after column families and hold HFiles. Files that span a
   * region boundary are split by the tool (HBase reads and rewrites them); the others are moved
   * into the regions as they are. Prints {"kind":"bulkload","table":T,"files":N}: N files loaded.
   */
  private static void bulkload(LocalCluster cluster, TableName table, JsonObject op, PrintStream out)
    throws IOException {
    Configuration conf = new Configuration(cluster.conf());
    // Fail rather than silently skip a family directory the table does not have.
    conf.setBoolean(BulkLoadHFiles.IGNORE_UNMATCHED_CF_CONF_KEY, false);
    Map<BulkLoadHFiles.LoadQueueItem, ByteBuffer> loaded =
      BulkLoadHFiles.create(conf).bulkLoad(table, new Path(string(op, "dir", null)));
    if (loaded.isEmpty()) {
      throw new IOException("bulkload into " + table + " loaded nothing from " + op.get("dir"));
    }
    out.println("{\"kind\":\"bulkload\",\"table\":" + Json.str(table.getNameAsString())
      + ",\"files\":" + loaded.size() + "}");
  }

  /**
   * {"op":"put","table":T,"row":R,"family":F,"qualifier":Q,"value":V[,"timestamp":N][,"ttl":MS]}:
   * "ttl" is a cell TTL (Put#setTTL), stored as a TTL tag (type 8) on the cell; "visibility" a
   * CellVisibility expression (a visibility tag, type 2, needs the VisibilityController).
   */
  private static Put put(JsonObject op) {
    Put p = new Put(bytes(op, "row"));
    long ts = op.has("timestamp") ? op.get("timestamp").getAsLong() : p.getTimestamp();
    p.addColumn(bytes(op, "family"), bytes(op, "qualifier"), ts, bytes(op, "value"));
    if (op.has("ttl")) {
      p.setTTL(op.get("ttl").getAsLong());
    }
    if (op.has("visibility")) {
      p.setCellVisibility(ClusterAdminOps.visibility(op));
    }
    return p;
  }

  /**
   * {"op":"delete","table":T,"row":R[,"family":F[,"qualifier":Q]][,"type":..][,"timestamp":N]}:
   * type DeleteColumn (default with a qualifier), Delete (one version), DeleteFamily (default
   * with only a family), DeleteFamilyVersion; with no family the whole row.
   */
  private static Delete delete(JsonObject op) {
    Delete d = new Delete(bytes(op, "row"));
    if (op.has("visibility")) {
      d.setCellVisibility(ClusterAdminOps.visibility(op));
    }
    if (!op.has("family")) {
      return d;
    }
    byte[] family = bytes(op, "family");
    long ts = op.has("timestamp") ? op.get("timestamp").getAsLong() : Long.MAX_VALUE;
    String type = string(op, "type", op.has("qualifier") ? "DeleteColumn" : "DeleteFamily");
    switch (type) {
      case "DeleteColumn":
        return d.addColumns(family, bytes(op, "qualifier"), ts);
      case "Delete":
        return op.has("timestamp") ? d.addColumn(family, bytes(op, "qualifier"), ts)
          : d.addColumn(family, bytes(op, "qualifier"));
      case "DeleteFamily":
        return d.addFamily(family, ts);
      case "DeleteFamilyVersion":
        return d.addFamilyVersion(family, ts);
      default:
        throw new IllegalArgumentException("unknown delete type " + type);
    }
  }

  /**
   * {"op":"alter","table":T,"family":F,"set":{KEY:VALUE,...}}: the shell's
   * alter 'T', {NAME => 'F', KEY => VALUE, ...} through Admin#modifyColumnFamily (the family
   * keeps every attribute not named), waiting for the regions to reopen.
   */
  private static void alter(Admin admin, TableName table, JsonObject op) throws IOException {
    byte[] family = bytes(op, "family");
    ColumnFamilyDescriptorBuilder b =
      ColumnFamilyDescriptorBuilder.newBuilder(admin.getDescriptor(table).getColumnFamily(family));
    setValues(b, op);
    admin.modifyColumnFamily(table, b.build());
  }

  /**
   * The "set" values (setValue, as the shell stores KEY => VALUE) and the "configuration" entries
   * (the shell's CONFIGURATION => {KEY => VALUE}) of a family op.
   */
  private static void setValues(ColumnFamilyDescriptorBuilder b, JsonObject op) {
    if (op.has("set")) {
      for (Map.Entry<String, JsonElement> e : op.getAsJsonObject("set").entrySet()) {
        b.setValue(e.getKey(), e.getValue().getAsString());
      }
    }
    if (op.has("configuration")) {
      for (Map.Entry<String, JsonElement> e : op.getAsJsonObject("configuration").entrySet()) {
        b.setConfiguration(e.getKey(), e.getValue().getAsString());
      }
    }
  }

  /**
   * The shell's {NAME => F, KEY => VALUE, ...} for a new family: the builder's defaults plus the
   * given values ({"family":F,"set":{KEY:VALUE,...}}).
   */
  private static org.apache.hadoop.hbase.client.ColumnFamilyDescriptor family(JsonObject op) {
    ColumnFamilyDescriptorBuilder b = ColumnFamilyDescriptorBuilder.newBuilder(bytes(op, "family"));
    setValues(b, op);
    return b.build();
  }

  /**
   * {"kind":"describe",...}: the table's values and every family's values and configuration as
   * HBase holds them (sorted by key), canonical JSON for comparing two descriptors.
   */
  private static void describe(Admin admin, TableName table, PrintStream out) throws IOException {
    org.apache.hadoop.hbase.client.TableDescriptor d = admin.getDescriptor(table);
    StringBuilder sb = new StringBuilder("{\"kind\":\"describe\",\"table\":");
    sb.append(Json.str(d.getTableName().getNameAsString())).append(",\"values\":");
    java.util.TreeMap<String, String> tv = new java.util.TreeMap<>();
    d.getValues().forEach((k, v) -> tv.put(Bytes.toStringBinary(k.get()), Bytes.toStringBinary(v.get())));
    sb.append(map(tv)).append(",\"families\":[");
    boolean first = true;
    for (org.apache.hadoop.hbase.client.ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      java.util.TreeMap<String, String> fv = new java.util.TreeMap<>();
      f.getValues().forEach((k, v) -> fv.put(Bytes.toStringBinary(k.get()), Bytes.toStringBinary(v.get())));
      sb.append(first ? "" : ",").append("{\"name\":").append(Json.str(f.getNameAsString()))
        .append(",\"values\":").append(map(fv)).append(",\"configuration\":")
        .append(map(new java.util.TreeMap<>(f.getConfiguration()))).append("}");
      first = false;
    }
    out.println(sb.append("]}"));
  }

  private static String map(java.util.SortedMap<String, String> m) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, String> e : m.entrySet()) {
      sb.append(sb.length() > 1 ? "," : "").append(Json.str(e.getKey())).append(":")
        .append(Json.str(e.getValue()));
    }
    return sb.append("}").toString();
  }

  /**
   * Requests a compaction and waits for it: Admin#compact only queues the request. timeoutS 0:
   * an error after 120 s; otherwise false after timeoutS seconds ({"timeout_s":N}: the script
   * goes on and prints {"kind":"compact","table":T,"finished":false}).
   */
  private static boolean compact(Admin admin, TableName table, boolean major, int timeoutS)
    throws IOException, InterruptedException {
    if (major) {
      admin.majorCompact(table);
    } else {
      admin.compact(table);
    }
    Thread.sleep(500); // the request reaches the RegionServer asynchronously
    long deadline = System.currentTimeMillis() + (timeoutS > 0 ? timeoutS : 120) * 1000L;
    while (admin.getCompactionState(table) != CompactionState.NONE) {
      if (System.currentTimeMillis() > deadline) {
        if (timeoutS > 0) {
          return false;
        }
        throw new IOException("compaction of " + table + " did not finish in 120 s");
      }
      Thread.sleep(200);
    }
    return true;
  }

  /**
   * Scan of all versions: raw (default) includes delete markers and deleted cells as they are in
   * the store files; {"raw":false} is what a client reads.
   */
  private static boolean scan(LocalCluster cluster, TableName table, boolean raw, int timeoutS,
      org.apache.hadoop.hbase.security.visibility.Authorizations auths, PrintStream out)
      throws IOException, InterruptedException {
    Scan s = new Scan().setRaw(raw).readAllVersions();
    if (auths != null) {
      s.setAuthorizations(auths);
    }
    if (!raw) {
      out.println("{\"kind\":\"scan\",\"raw\":false}");  // separates it from a raw scan
    }
    java.util.concurrent.Callable<List<String>> body = () -> {
      List<String> cells = new java.util.ArrayList<>();
      try (Table t = cluster.connection().getTable(table); ResultScanner rs = t.getScanner(s)) {
        for (Result r : rs) {
          for (Cell c : r.rawCells()) {
            cells.add(Json.cell(c));
          }
        }
      }
      return cells;
    };
    List<String> cells;
    if (timeoutS <= 0) {
      try {
        cells = body.call();
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException(e);
      }
    } else {
      // {"timeout_s":N}: a scan that has not finished after N s (a RegionServer scanner that
      // never returns) prints {"kind":"scan","raw":R,"finished":false} instead of its cells.
      java.util.concurrent.ExecutorService ex = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread th = new Thread(r, "harness-scan");
        th.setDaemon(true);
        return th;
      });
      java.util.concurrent.Future<List<String>> f = ex.submit(body);
      ex.shutdown();
      try {
        cells = f.get(timeoutS, java.util.concurrent.TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        f.cancel(true);
        out.println("{\"kind\":\"scan\",\"raw\":" + raw + ",\"finished\":false}");
        return false;
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IOException("scan of " + table, e.getCause());
      }
    }
    for (String c : cells) {
      out.println(c);
    }
    return true;
  }

  private static byte[] bytes(JsonObject o, String key) {
    return Bytes.toBytesBinary(o.get(key).getAsString());
  }

  private static String string(JsonObject o, String key, String dflt) {
    return o.has(key) ? o.get(key).getAsString() : dflt;
  }
}
