package org.hfilekit.hdfs;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Starts a MiniDFSCluster for hfilekit's WebHDFS tests and keeps it up until stdin closes (or
 * SIGTERM/SIGINT). Everything binds to 127.0.0.1 on ephemeral ports; once the cluster is up the
 * ports go to --ports-file as JSON (written under a temporary name, then renamed, so a reader
 * never sees half a file) and as one "READY ..." line on stdout.
 */
public final class MiniHdfs {
  private MiniHdfs() {}

  public static void main(String[] args) throws Exception {
    String baseDir = null;
    String portsFile = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--base-dir") && i + 1 < args.length) {
        baseDir = args[++i];
      } else if (args[i].equals("--ports-file") && i + 1 < args.length) {
        portsFile = args[++i];
      } else {
        System.err.println("usage: MiniHdfs --base-dir DIR --ports-file FILE");
        System.exit(2);
      }
    }
    if (baseDir == null || portsFile == null) {
      System.err.println("usage: MiniHdfs --base-dir DIR --ports-file FILE");
      System.exit(2);
    }

    Configuration conf = new Configuration();
    conf.setBoolean("dfs.webhdfs.enabled", true);
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
    conf.set("dfs.namenode.http-bind-host", "127.0.0.1");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set("dfs.datanode.hostname", "127.0.0.1");
    // 1 MiB blocks: a test file of a few MiB spans blocks (reads cross block boundaries).
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    conf.setLong("dfs.blocksize", 1 << 20);
    // A WebHDFS CREATE ends in the DataNode's DFSClient completing the file, which waits for the
    // block report with a back-off starting at 400 ms: ~0.2 s per small file. 10 ms here.
    conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 10);
    conf.set("hadoop.security.authentication", "simple");

    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, new File(baseDir))
        .numDataNodes(1)
        .nameNodePort(0)
        .nameNodeHttpPort(0)
        .checkDataNodeAddrConfig(true)
        .checkDataNodeHostConfig(true)
        .format(true)
        .build();
    cluster.waitActive();
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::shutdown));

    int httpPort = cluster.getNameNode().getHttpAddress().getPort();
    int rpcPort = cluster.getNameNodePort();
    int dnHttpPort = cluster.getDataNodes().get(0).getInfoPort();
    String json = String.format(
        "{\"namenode_http\": \"127.0.0.1:%d\", \"namenode_rpc\": \"127.0.0.1:%d\", "
            + "\"datanode_http\": \"127.0.0.1:%d\"}%n",
        httpPort, rpcPort, dnHttpPort);
    Path target = Path.of(portsFile);
    Path tmp = Path.of(portsFile + ".tmp");
    Files.writeString(tmp, json, StandardCharsets.UTF_8);
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    System.out.println("READY " + json.trim());
    System.out.flush();

    // Stay up until the test closes our stdin (or dies: then the pipe closes too).
    InputStream in = System.in;
    byte[] buf = new byte[256];
    try {
      while (in.read(buf) >= 0) {
        // ignore input
      }
    } catch (IOException e) {
      // stdin gone: stop like on EOF
    }
    System.exit(0);  // runs the shutdown hook
  }
}
