package org.hfilekit.harness;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.visibility.Authorizations;
import org.apache.hadoop.hbase.security.visibility.CellVisibility;
import org.apache.hadoop.hbase.security.visibility.VisibilityClient;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * Cluster ops for tables that hold every cell kind HBase writes: a region split that leaves
 * Reference files behind, the RegionServer's compaction switch, and visibility labels (these
 * need the VisibilityController coprocessor, configured through HARNESS_HBASE_CONF).
 */
final class ClusterAdminOps {
  private ClusterAdminOps() {}

  /**
   * {"op":"split","table":T,"row":R}: Admin#splitRegionAsync of the region holding R at R,
   * waiting for the split procedure, which ends with both daughters open. With compactions off
   * (compaction_switch) the daughters keep their Reference files to the parent's store files.
   */
  static void split(Admin admin, TableName table, JsonObject op) throws Exception {
    byte[] at = Bytes.toBytesBinary(op.get("row").getAsString());
    RegionInfo parent = null;
    for (RegionInfo ri : admin.getRegions(table)) {
      if (ri.containsRow(at)) {
        parent = ri;
      }
    }
    if (parent == null) {
      throw new IOException("split: no region of " + table + " holds " + op.get("row"));
    }
    admin.splitRegionAsync(parent.getRegionName(), at).get(180, TimeUnit.SECONDS);
    List<RegionInfo> after = admin.getRegions(table);
    for (RegionInfo ri : after) {
      if (ri.getEncodedName().equals(parent.getEncodedName())) {
        throw new IOException("split: " + parent.getEncodedName() + " still listed afterwards");
      }
    }
  }

  /**
   * {"op":"clone","table":T,"snapshot":S,"into":T2}: Admin#snapshot of T as S, then
   * Admin#cloneSnapshot of S as table T2, whose store files are HFileLinks to T's files (and
   * References to such links where T's regions held References).
   */
  static void snapshotClone(Admin admin, TableName table, JsonObject op) throws IOException {
    String name = op.get("snapshot").getAsString();
    admin.snapshot(name, table);
    admin.cloneSnapshot(name, TableName.valueOf(op.get("into").getAsString()));
  }

  /**
   * {"op":"compaction_switch","table":T,"on":B}: Admin#compactionSwitch on every RegionServer
   * (the runtime form of hbase.regionserver.compaction.enabled; T is not used).
   */
  static void compactionSwitch(Admin admin, JsonObject op) throws IOException {
    admin.compactionSwitch(op.get("on").getAsBoolean(), java.util.Collections.emptyList());
  }

  /**
   * {"op":"vis_labels","table":T,"labels":[L...]}: VisibilityClient#addLabels and #setAuths of
   * the labels for the current user (T is not used). Retried while hbase:labels, which the
   * master's VisibilityController creates at start, is not yet online.
   */
  static void visLabels(Connection conn, JsonObject op) throws Exception {
    String[] labels = strings(op.getAsJsonArray("labels"));
    String user = User.getCurrent().getShortName();
    long deadline = System.currentTimeMillis() + 120_000;
    while (true) {
      try {
        check(VisibilityClient.addLabels(conn, labels).getResultList(), "addLabels");
        check(VisibilityClient.setAuths(conn, labels, user).getResultList(), "setAuths");
        return;
      } catch (Throwable t) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("vis_labels did not succeed in 120 s", t);
        }
        Thread.sleep(500);
      }
    }
  }

  /** "visibility": a CellVisibility expression for a put or delete, or null. */
  static CellVisibility visibility(JsonObject op) {
    return op.has("visibility") ? new CellVisibility(op.get("visibility").getAsString()) : null;
  }

  /** "authorizations":[L...] of a scan, or null (no labelled cell is then returned). */
  static Authorizations authorizations(JsonObject op) {
    return op.has("authorizations")
      ? new Authorizations(strings(op.getAsJsonArray("authorizations"))) : null;
  }

  private static void check(
      List<org.apache.hadoop.hbase.protobuf.generated.ClientProtos.RegionActionResult> results,
      String what) throws IOException {
    for (org.apache.hadoop.hbase.protobuf.generated.ClientProtos.RegionActionResult r : results) {
      if (r.hasException()) {
        String name = r.getException().getName();
        // A label or authorization that is already there (a rerun on the same root) is fine.
        if (!name.contains("LabelAlreadyExistsException")) {
          throw new IOException(what + " failed: " + name);
        }
      }
    }
  }

  private static String[] strings(JsonArray a) {
    String[] out = new String[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).getAsString();
    }
    return out;
  }
}
