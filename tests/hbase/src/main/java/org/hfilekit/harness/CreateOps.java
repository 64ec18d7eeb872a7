package org.hfilekit.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HColumnDescriptor;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HTableDescriptor;
import org.apache.hadoop.hbase.MetaTableAccessor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Hbck;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.regionserver.HRegionFileSystem;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * Ops for a table made offline (hfile create):
 *
 * <pre>
 *   {"op":"fs_table_online","table":T}   what an operator does with HBCK2 after hfile-create:
 *       addFsRegionsMissingInMeta (a CLOSED row per region dir's .regioninfo), setTableState
 *       ENABLED, assigns (every region), through the same client calls (MetaTableAccessor,
 *       Hbck); waits until the table is available. Prints {"kind":"fs_table_online","table":T,
 *       "state_before":S|null,"regions":N,"pids":[...]}.
 *   {"op":"shell_describe","table":T}    the lines HBase's shell `describe` prints, made with
 *       the calls it makes (getTableDescriptor -> HTableDescriptor, toStringTableAttributes,
 *       HColumnDescriptor.toString): {"kind":"shell_describe","table":T,"lines":[...]}
 *   {"op":"get_row","table":T,"row":R}   a client Get of one row: {"kind":"get_row","table":T,
 *       "row":R,"region":ENC,"cells":[{"family":F,"qualifier":Q,"timestamp":N,"value":V},...]}
 *       (ENC: the region the client located for R)
 *   {"op":"create_namespace","table":T}  the shell's create_namespace of T's namespace
 *       (Admin.createNamespace), for a namespace whose dir hfile-create --create-namespace made
 * </pre>
 */
final class CreateOps {
  private CreateOps() {}

  static void run(LocalCluster cluster, Admin admin, TableName table, JsonObject op,
      PrintStream out) throws Exception {
    switch (op.get("op").getAsString()) {
      case "fs_table_online":
        online(cluster, admin, table, out);
        break;
      case "shell_describe":
        shellDescribe(admin, table, out);
        break;
      case "get_row":
        getRow(cluster.connection(), table, op, out);
        break;
      case "create_namespace":
        admin.createNamespace(
          org.apache.hadoop.hbase.NamespaceDescriptor.create(table.getNamespaceAsString()).build());
        break;
      default:
        throw new IllegalArgumentException("not a create op: " + op);
    }
  }

  private static void online(LocalCluster cluster, Admin admin, TableName table, PrintStream out)
      throws Exception {
    Connection conn = cluster.connection();
    TableState before = MetaTableAccessor.getTableState(conn, table);
    FileSystem fs = FileSystem.getLocal(cluster.conf());
    Path tableDir = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(cluster.conf()), table);
    List<RegionInfo> regions = new ArrayList<>();
    for (FileStatus st : fs.listStatus(tableDir)) {
      String name = st.getPath().getName();
      if (st.isDirectory() && name.matches("[0-9a-f]+")) {
        regions.add(HRegionFileSystem.loadRegionInfoFileContent(fs, st.getPath()));
      }
    }
    // addFsRegionsMissingInMeta: a row per region, state CLOSED.
    MetaTableAccessor.addRegionsToMeta(conn, regions, 1);
    try (Table meta = conn.getTable(TableName.META_TABLE_NAME)) {
      for (RegionInfo ri : regions) {
        meta.put(new Put(ri.getRegionName()).addColumn(HConstants.CATALOG_FAMILY,
          HConstants.STATE_QUALIFIER, Bytes.toBytes("CLOSED")));
      }
    }
    List<Long> pids;
    try (Hbck hbck = conn.getHbck()) {
      hbck.setTableStateInMeta(new TableState(table, TableState.State.ENABLED));
      List<String> encoded = new ArrayList<>();
      for (RegionInfo ri : regions) {
        encoded.add(ri.getEncodedName());
      }
      pids = hbck.assigns(encoded);
    }
    long deadline = System.currentTimeMillis() + 120_000;
    while (!admin.isTableAvailable(table)
        || !admin.getClusterMetrics().getRegionStatesInTransition().isEmpty()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("regions of " + table + " not open after 120 s: pids " + pids);
      }
      Thread.sleep(200);
    }
    StringBuilder p = new StringBuilder();
    for (Long pid : pids) {
      p.append(p.length() > 0 ? "," : "").append(pid);
    }
    out.println("{\"kind\":\"fs_table_online\",\"table\":" + Json.str(table.getNameAsString())
        + ",\"state_before\":" + (before == null ? "null" : Json.str(before.getState().name()))
        + ",\"regions\":" + regions.size() + ",\"pids\":[" + p + "]}");
  }

  private static void getRow(Connection conn, TableName table, JsonObject op, PrintStream out)
      throws IOException {
    byte[] row = Bytes.toBytesBinary(op.get("row").getAsString());
    String region;
    try (org.apache.hadoop.hbase.client.RegionLocator loc = conn.getRegionLocator(table)) {
      region = loc.getRegionLocation(row, true).getRegion().getEncodedName();
    }
    StringBuilder sb = new StringBuilder();
    try (Table t = conn.getTable(table)) {
      org.apache.hadoop.hbase.client.Result r = t.get(new org.apache.hadoop.hbase.client.Get(row));
      for (org.apache.hadoop.hbase.Cell c : r.rawCells()) {
        sb.append(sb.length() > 0 ? "," : "").append("{\"family\":")
          .append(Json.str(Bytes.toStringBinary(org.apache.hadoop.hbase.CellUtil.cloneFamily(c))))
          .append(",\"qualifier\":")
          .append(Json.str(Bytes.toStringBinary(org.apache.hadoop.hbase.CellUtil.cloneQualifier(c))))
          .append(",\"timestamp\":").append(c.getTimestamp()).append(",\"value\":")
          .append(Json.str(Bytes.toStringBinary(org.apache.hadoop.hbase.CellUtil.cloneValue(c))))
          .append("}");
      }
    }
    out.println("{\"kind\":\"get_row\",\"table\":" + Json.str(table.getNameAsString())
        + ",\"row\":" + Json.str(Bytes.toStringBinary(row)) + ",\"region\":" + Json.str(region)
        + ",\"cells\":[" + sb + "]}");
  }

  @SuppressWarnings("deprecation") // the shell's own calls
  private static void shellDescribe(Admin admin, TableName table, PrintStream out)
      throws IOException {
    HTableDescriptor d = admin.getTableDescriptor(table);
    List<String> lines = new ArrayList<>();
    lines.add("Table " + table.getNameAsString() + " is "
        + (admin.isTableEnabled(table) ? "ENABLED" : "DISABLED"));
    lines.add(table.getNameAsString() + d.toStringTableAttributes());
    lines.add("COLUMN FAMILIES DESCRIPTION");
    for (HColumnDescriptor f : d.getColumnFamilies()) {
      lines.add(f.toString());
    }
    StringBuilder sb = new StringBuilder();
    for (String l : lines) {
      sb.append(sb.length() > 0 ? "," : "").append(Json.str(l));
    }
    out.println("{\"kind\":\"shell_describe\",\"table\":" + Json.str(table.getNameAsString())
        + ",\"lines\":[" + sb + "]}");
  }
}
