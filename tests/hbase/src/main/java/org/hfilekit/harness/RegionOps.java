package org.hfilekit.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * Region-level cluster ops (tests/hbase/cluster/check_split.sh), dispatched by ClusterCommand:
 *
 * <pre>
 *   {"op":"split_point","table":T}   per online region of T: the row HBase's split would use,
 *                                    without splitting (HRegion.checkSplit(true) on the
 *                                    RegionServer: the table's RegionSplitPolicy.getSplitPoint,
 *                                    its split restriction and the region-range check)
 *                                    {"kind":"split_point","region":ENC,"start":S,"end":E,
 *                                    "row":R|null}
 *   {"op":"regions","table":T}       {"kind":"region","region":ENC,"start":S,"end":E} per region
 *                                    of Admin.getRegions, in start-key order
 *   {"op":"split_region","table":T,"index":I}   HBase splits region I (start-key order) at its
 *                                    own split point (Admin.splitRegionAsync), waits for it
 *   {"op":"merge_regions","table":T,"index":I}  HBase merges regions I and I+1
 *                                    (Admin.mergeRegionsAsync), waits; retried while a region
 *                                    still has references (until the compacted files are gone)
 * </pre>
 *
 * Byte strings are printed with Bytes.toStringBinary.
 */
final class RegionOps {
  private RegionOps() {}

  static void run(LocalCluster cluster, Admin admin, TableName table, JsonObject op,
      PrintStream out) throws Exception {
    switch (op.get("op").getAsString()) {
      case "split_point":
        splitPoint(cluster, table, out);
        break;
      case "regions":
        for (RegionInfo ri : sorted(admin, table)) {
          out.println("{\"kind\":\"region\",\"region\":" + Json.str(ri.getEncodedName())
              + range(ri) + "}");
        }
        break;
      case "split_region": {
        RegionInfo ri = sorted(admin, table).get(op.get("index").getAsInt());
        admin.splitRegionAsync(ri.getRegionName()).get(120, TimeUnit.SECONDS);
        waitForRegions(admin, table);
        break;
      }
      case "merge_regions":
        merge(admin, table, op.get("index").getAsInt());
        break;
      default:
        throw new IllegalArgumentException("not a region op: " + op);
    }
  }

  private static void splitPoint(LocalCluster cluster, TableName table, PrintStream out)
      throws IOException {
    List<HRegion> regions = new ArrayList<>(cluster.hbase().getRegionServer(0).getRegions(table));
    regions.sort((a, b) -> RegionInfo.COMPARATOR.compare(a.getRegionInfo(), b.getRegionInfo()));
    for (HRegion r : regions) {
      // force: ask the policy for its row whatever the region's size (shouldSplit aside).
      Optional<byte[]> row = r.checkSplit(true);
      out.println("{\"kind\":\"split_point\",\"region\":"
          + Json.str(r.getRegionInfo().getEncodedName()) + range(r.getRegionInfo()) + ",\"row\":"
          + (row.isPresent() ? Json.str(Bytes.toStringBinary(row.get())) : "null") + "}");
    }
  }

  private static void merge(Admin admin, TableName table, int index) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (true) {
      List<RegionInfo> regions = sorted(admin, table);
      byte[][] pair = {regions.get(index).getRegionName(), regions.get(index + 1).getRegionName()};
      try {
        admin.mergeRegionsAsync(pair, false).get(120, TimeUnit.SECONDS);
        break;
      } catch (Exception e) {
        // A region whose compacted-away reference files are not yet discharged is "not
        // mergeable" (HStore.hasReferences counts compacted files): wait and retry.
        String why = String.valueOf(e.getMessage()) + String.valueOf(e.getCause());
        if (!(why.contains("mergeable") || why.contains("reference"))
            || System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(1000);
      }
    }
    waitForRegions(admin, table);
  }

  /** Waits until no region of the table is in transition (the procedure's regions are open). */
  private static void waitForRegions(Admin admin, TableName table) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (!admin.isTableAvailable(table)
        || !admin.getClusterMetrics().getRegionStatesInTransition().isEmpty()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("regions of " + table + " not available after 120 s");
      }
      Thread.sleep(200);
    }
  }

  private static List<RegionInfo> sorted(Admin admin, TableName table) throws IOException {
    List<RegionInfo> regions = new ArrayList<>();
    for (RegionInfo ri : admin.getRegions(table)) {
      if (!ri.isSplitParent() && !ri.isOffline() && ri.getReplicaId() == 0) {
        regions.add(ri);
      }
    }
    regions.sort(RegionInfo.COMPARATOR);
    return regions;
  }

  private static String range(RegionInfo ri) {
    return ",\"start\":" + Json.str(Bytes.toStringBinary(ri.getStartKey())) + ",\"end\":"
        + Json.str(Bytes.toStringBinary(ri.getEndKey()));
  }
}
