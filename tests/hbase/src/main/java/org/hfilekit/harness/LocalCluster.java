package org.hfilekit.harness;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;

/**
 * An in-process HBase (one master, one RegionServer, a mini ZooKeeper) on the local file
 * system, rooted at a directory of our choosing that survives {@link #close()}. This is how
 * standalone HBase runs (LocalHBaseCluster); unlike HBaseTestingUtility it lets the caller fix
 * the root directory and restart on it later, which is what region-layout tests need.
 */
final class LocalCluster implements AutoCloseable {
  private final MiniZooKeeperCluster zk;
  private final LocalHBaseCluster hbase;
  private final Connection connection;
  private final Configuration conf;

  /** Starts on DIR: HBase root DIR/hbase (created or reused), ZooKeeper data DIR/zk (fresh). */
  LocalCluster(File dir) throws IOException, InterruptedException {
    Configuration conf = HBaseConfiguration.create();
    Codecs.configure(conf, null, null);
    File zkDir = new File(dir, "zk");
    FileUtil.fullyDelete(zkDir); // ZooKeeper state is transient; HBase's state is in the root dir
    conf.set(HConstants.HBASE_DIR, new File(dir, "hbase").getAbsoluteFile().toURI().toString());
    conf.set("fs.defaultFS", "file:///");
    conf.setBoolean(HConstants.CLUSTER_DISTRIBUTED, false);
    // The local file system has no hflush/hsync capability; the FSHLog WAL copes with that.
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.set("hbase.wal.provider", "filesystem");
    conf.setInt(HConstants.MASTER_INFO_PORT, -1);
    conf.setInt(HConstants.REGIONSERVER_INFO_PORT, -1);
    conf.setBoolean(LocalHBaseCluster.ASSIGN_RANDOM_PORTS, true);
    // Everything stays on loopback: bind and advertise 127.0.0.1, no web UIs.
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.set("hbase.master.hostname", "localhost");
    conf.set("hbase.unsafe.regionserver.hostname", "localhost");
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    // HARNESS_HBASE_CONF="k=v;k=v": extra settings, e.g. a high hbase.hstore.compactionThreshold
    // so that several flushes are not compacted behind the script's back.
    String extra = System.getenv("HARNESS_HBASE_CONF");
    if (extra != null) {
      for (String kv : extra.split(";")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          conf.set(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
      }
    }
    zk = new MiniZooKeeperCluster(conf);
    int zkPort = zk.startup(zkDir);
    conf.set(HConstants.ZOOKEEPER_QUORUM, "localhost");
    conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, zkPort);
    hbase = new LocalHBaseCluster(conf, 1, 1);
    hbase.startup();
    connection = ConnectionFactory.createConnection(conf);
    this.conf = conf;
    // Blocks until the master is up and hbase:meta is online.
    connection.getAdmin().listTableNames();
  }

  Configuration conf() {
    return conf;
  }

  Connection connection() {
    return connection;
  }

  /** The in-process cluster, for ops that ask a RegionServer directly. */
  LocalHBaseCluster hbase() {
    return hbase;
  }

  /** Stops everything; DIR/hbase is kept (a clean shutdown flushes no memstore by itself). */
  @Override
  public void close() throws IOException {
    connection.close();
    hbase.shutdown();
    hbase.join();
    zk.shutdown();
  }
}
