package org.hfilekit.harness;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.io.hfile.ReaderContext;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.HarnessBloomAccess;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.hadoop.hbase.regionserver.ScanInfo;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.StoreFileReader;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.io.hfile.BloomFilterMetrics;
import org.apache.hadoop.hbase.io.Reference;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * bench: HBase's side of hfilekit's benchmark (scripts/bench.sh), in one JVM per setting.
 * Every operation is run {@code --warmup} times untimed, then {@code --reps} times timed with
 * System.nanoTime; one JSON line per timed run. Cells come from hfile-bench's cells files
 * (tests/bench/bench_data.h), so HBase sees the same bytes as hfilekit and RocksDB.
 *
 * <pre>
 * bench --dir DIR --work DIR --compression C [--level L] [--encoding E] [--ops LIST]
 *       [--scan-file HFILE] [--to-compression C] [--reps N] [--warmup N]
 * </pre>
 * ops: write (cells.bin through StoreFileWriter), scan (HFileScanner over --scan-file, default
 * the written file), get / get-bloom (gets.bin, StoreFileScanner seek per row, the row bloom
 * consulted first for get-bloom), compact (part0..3.bin written as four store files, then
 * StoreFileScanners + StoreScanner(COMPACT_DROP_DELETES, VERSIONS 1) + StoreFileWriter; only
 * the compaction is timed), alter (what a RegionServer's major compaction does after an
 * `alter` of the codec: --scan-file, default the written file, through one StoreFileScanner +
 * StoreScanner(COMPACT_DROP_DELETES, VERSIONS 3) + StoreFileWriter with --to-compression).
 */
final class BenchCommand {
  private static final byte[] FAMILY = Bytes.toBytes("f");

  private BenchCommand() {}

  static final class Result {
    long cells, bytes, items, found, fileSize;
  }

  interface Op {
    Result run(int rep) throws IOException;
  }

  static void run(Args a, PrintStream out) throws Exception {
    String dir = a.require("dir");
    String work = a.require("work");
    Compression.Algorithm compression = Compression.getCompressionAlgorithmByName(
      a.get("compression", "none").toLowerCase(Locale.ROOT));
    int level = a.getInt("level", 0);
    DataBlockEncoding encoding =
      DataBlockEncoding.valueOf(a.get("encoding", "NONE").toUpperCase(Locale.ROOT));
    List<String> ops = Arrays.asList(a.get("ops", "write,scan,get,get-bloom,compact").split(","));
    String scanFile = a.get("scan-file", null);
    String toCompression = a.get("to-compression", null);
    int reps = a.getInt("reps", 3);
    int warmup = a.getInt("warmup", 1);
    a.checkAllUsed();

    Configuration conf = HBaseConfiguration.create();
    Codecs.configure(conf, compression, null);
    if (level != 0) {
      conf.setInt("hbase.io.compress.zstd.level", level);
    }
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    Files.createDirectories(Paths.get(work));
    HFileContext ctx = new HFileContextBuilder().withCompression(compression)
      .withDataBlockEncoding(encoding).withIncludesMvcc(true).withIncludesTags(false)
      .withHBaseCheckSum(true).withChecksumType(ChecksumType.CRC32C).withBytesPerCheckSum(16384)
      .withBlockSize(65536).withColumnFamily(FAMILY).withTableName(Bytes.toBytes("bench"))
      .withCellComparator(CellComparatorImpl.COMPARATOR).withCreateTime(1700000000000L).build();
    Path written = new Path(work, "hbase.hfile");

    for (String op : ops) {
      Op body;
      switch (op) {
        case "write":
          body = rep -> write(conf, fs, ctx, dir + "/cells.bin", written);
          break;
        case "scan": {
          Path p = scanFile != null ? new Path(scanFile) : written;
          body = rep -> scan(conf, fs, p);
          break;
        }
        case "get":
        case "get-bloom": {
          Path p = scanFile != null ? new Path(scanFile) : written;
          List<byte[]> rows = readGets(dir + "/gets.bin");
          boolean bloom = op.equals("get-bloom");
          body = rep -> gets(conf, fs, p, rows, bloom);
          break;
        }
        case "compact": {
          List<Path> inputs = new ArrayList<>();
          for (int i = 0; i < 4; i++) {
            Path p = new Path(work, "hbase-part" + i + ".hfile");
            write(conf, fs, ctx, dir + "/part" + i + ".bin", p);
            inputs.add(p);
          }
          Path outPath = new Path(work, "hbase-compacted.hfile");
          body = rep -> compact(conf, fs, ctx, inputs, outPath, 1);
          break;
        }
        case "alter": {
          if (toCompression == null) {
            throw new IllegalArgumentException("alter needs --to-compression");
          }
          Compression.Algorithm to = Compression.getCompressionAlgorithmByName(
            toCompression.toLowerCase(Locale.ROOT));
          HFileContext toCtx = new HFileContextBuilder(ctx).withCompression(to).build();
          Path p = scanFile != null ? new Path(scanFile) : written;
          Path outPath = new Path(work, "hbase-altered.hfile");
          body = rep -> compact(conf, fs, toCtx, Arrays.asList(p), outPath, 3);
          break;
        }
        default:
          throw new IllegalArgumentException("unknown op " + op);
      }
      for (int i = 0; i < warmup; i++) {
        body.run(-1);
      }
      for (int i = 0; i < reps; i++) {
        long t0 = System.nanoTime();
        Result r = body.run(i);
        double s = (System.nanoTime() - t0) / 1e9;
        out.printf(Locale.ROOT,
          "{\"impl\":\"hbase\",\"op\":\"%s\",\"rep\":%d,\"ok\":true,\"seconds\":%.6f,\"cells\":%d,"
            + "\"bytes\":%d,\"items\":%d,\"found\":%d,\"file_size\":%d,\"maxrss_kb\":%d}%n",
          op, i, s, r.cells, r.bytes, r.items, r.found, r.fileSize, peakRssKb());
        out.flush();
      }
    }
  }

  /** VmHWM of this JVM (its peak RSS so far), in KiB. */
  static long peakRssKb() {
    try {
      for (String l : Files.readAllLines(Paths.get("/proc/self/status"))) {
        if (l.startsWith("VmHWM:")) {
          return Long.parseLong(l.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return 0;
  }

  /** Reads a cells file (bench_data.h); each cell becomes one KeyValue backed by one array. */
  interface CellSink {
    void accept(KeyValue kv) throws IOException;
  }

  static long readCells(String path, CellSink sink, Result r) throws IOException {
    long maxSeq = 0;
    try (DataInputStream in =
      new DataInputStream(new BufferedInputStream(new FileInputStream(path), 1 << 20))) {
      byte[] magic = new byte[8];
      in.readFully(magic);
      if (!new String(magic, StandardCharsets.US_ASCII).equals("HFKCELL1")) {
        throw new IOException(path + ": not a cells file");
      }
      while (true) {
        int klen;
        try {
          klen = in.readInt();
        } catch (EOFException e) {
          break;
        }
        int vlen = in.readInt();
        long seq = in.readLong();
        byte[] buf = new byte[8 + klen + vlen];
        Bytes.putInt(buf, 0, klen);
        Bytes.putInt(buf, 4, vlen);
        in.readFully(buf, 8, klen + vlen);
        KeyValue kv = new KeyValue(buf, 0, buf.length);
        kv.setSequenceId(seq);
        sink.accept(kv);
        maxSeq = Math.max(maxSeq, seq);
        r.cells++;
        r.bytes += klen + vlen;
      }
    }
    return maxSeq;
  }

  static StoreFileWriter newWriter(Configuration conf, FileSystem fs, HFileContext ctx, Path path)
    throws IOException {
    fs.delete(path, false);
    return new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs).withFilePath(path)
      .withFileContext(ctx).withBloomType(BloomType.ROW).build();
  }

  static Result write(Configuration conf, FileSystem fs, HFileContext ctx, String cells, Path path)
    throws IOException {
    Result r = new Result();
    StoreFileWriter w = newWriter(conf, fs, ctx, path);
    long maxSeq = readCells(cells, w::append, r);
    w.appendMetadata(maxSeq, false);
    w.close();
    r.fileSize = fs.getFileStatus(path).getLen();
    return r;
  }

  static Result scan(Configuration conf, FileSystem fs, Path path) throws IOException {
    Result r = new Result();
    HFile.Reader reader = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf);
    try (HFileScanner s = reader.getScanner(conf, false, false)) {
      if (s.seekTo()) {
        do {
          Cell c = s.getCell();
          r.cells++;
          r.bytes += KeyValueUtil.keyLength(c) + c.getValueLength();
        } while (s.next());
      }
    } finally {
      reader.close();
    }
    return r;
  }

  static List<byte[]> readGets(String path) throws IOException {
    byte[] all = Files.readAllBytes(Paths.get(path));
    List<byte[]> rows = new ArrayList<>();
    for (int p = 8; p + 2 <= all.length;) {
      int len = ((all[p] & 0xff) << 8) | (all[p + 1] & 0xff);
      rows.add(Arrays.copyOfRange(all, p + 2, p + 2 + len));
      p += 2 + len;
    }
    return rows;
  }

  static HStoreFile openStoreFile(Configuration conf, FileSystem fs, Path path) throws IOException {
    StoreFileInfo info = new StoreFileInfo(conf, fs, fs.getFileStatus(path), (Reference) null);
    HStoreFile sf = new HStoreFile(info, BloomType.ROW, CacheConfig.DISABLED, new BloomFilterMetrics());
    sf.initReader();
    return sf;
  }

  static Result gets(Configuration conf, FileSystem fs, Path path, List<byte[]> rows,
    boolean bloom) throws IOException {
    Result r = new Result();
    HStoreFile sf = openStoreFile(conf, fs, path);
    try {
      StoreFileReader reader = sf.getReader();
      StoreFileScanner s = reader.getStoreFileScanner(false, true, false, Long.MAX_VALUE, 0, false);
      try {
        for (byte[] row : rows) {
          r.items++;
          if (bloom && !HarnessBloomAccess.passesGeneralBloom(reader, row, FAMILY, null)) {
            continue;
          }
          s.seek(PrivateCellUtil.createFirstOnRow(row));
          boolean found = false;
          for (Cell c = s.peek(); c != null && CellUtil.matchingRows(c, row); c = s.peek()) {
            r.cells++;
            r.bytes += KeyValueUtil.keyLength(c) + c.getValueLength();
            found = true;
            s.next();
          }
          if (found) {
            r.found++;
          }
        }
      } finally {
        s.close();
      }
    } finally {
      sf.closeStoreFile(false);
    }
    return r;
  }

  static Result compact(Configuration conf, FileSystem fs, HFileContext ctx, List<Path> inputs,
    Path outPath, int maxVersions) throws IOException {
    Result r = new Result();
    List<HStoreFile> files = new ArrayList<>();
    List<KeyValueScanner> scanners = new ArrayList<>();
    long order = inputs.size();
    for (Path p : inputs) {
      HStoreFile sf = openStoreFile(conf, fs, p);
      files.add(sf);
      // As StoreFileScanner.getScannersForStoreFiles does for a compaction: stream reads,
      // no block caching, scanner order = file order.
      scanners.add(sf.getReader().getStoreFileScanner(false, false, true, Long.MAX_VALUE,
        --order, false));
    }
    ScanInfo scanInfo = new ScanInfo(conf, FAMILY, 0, maxVersions, Long.MAX_VALUE, KeepDeletedCells.FALSE,
      65536, 0, CellComparatorImpl.COMPARATOR, false);
    StoreFileWriter w = newWriter(conf, fs, ctx, outPath);
    long maxSeq = 0;
    try (StoreScanner scanner = new StoreScanner(scanInfo, ScanType.COMPACT_DROP_DELETES, scanners)) {
      List<Cell> batch = new ArrayList<>();
      boolean more;
      do {
        more = scanner.next(batch);
        for (Cell c : batch) {
          w.append(c);
          maxSeq = Math.max(maxSeq, c.getSequenceId());
          r.items++;
        }
        batch.clear();
      } while (more);
    }
    w.appendMetadata(maxSeq, true);
    w.close();
    for (HStoreFile sf : files) {
      r.cells += sf.getReader().getEntries();
      r.bytes += sf.getReader().length();
      sf.closeStoreFile(false);
    }
    r.bytes = 0;  // the driver takes the input cell bytes from the cells files
    r.fileSize = fs.getFileStatus(outPath).getLen();
    return r;
  }
}
