package org.hfilekit.harness;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.Reference;
import org.apache.hadoop.hbase.io.hfile.BloomFilterMetrics;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFilePrettyPrinter;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.HarnessBloomAccess;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.StoreFileReader;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HFileProtos.FileTrailerProto;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * read: prints an HFile as HBase's own reader sees it, in the canonical JSON-lines format:
 * trailer, file info, cells, Bloom answers for the probes, then HFilePrettyPrinter's verdict.
 */
final class ReadCommand {
  private ReadCommand() {}

  static void run(Args a, PrintStream out) throws IOException {
    if (a.positional().isEmpty()) {
      throw new IllegalArgumentException(
        "usage: read FILE... [--probes PROBEFILE] [--seeks SEEKFILE] [--out-dir DIR]");
    }
    String probes = a.get("probes", null);
    String seeks = a.get("seeks", null);
    String outDir = a.get("out-dir", null);
    a.checkAllUsed();
    if (outDir == null && a.positional().size() > 1) {
      throw new IllegalArgumentException("read: several files need --out-dir");
    }
    Configuration conf = HBaseConfiguration.create();
    Codecs.configure(conf, null, null);
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    List<JsonObject> seekTargets = new ArrayList<>();
    if (seeks != null) {
      for (String line : Files.readAllLines(Paths.get(seeks), StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          seekTargets.add(JsonParser.parseString(line).getAsJsonObject());
        }
      }
    }
    int failed = 0;
    for (String file : a.positional()) {
      Path path = fs.makeQualified(new Path(Paths.get(file).toAbsolutePath().toString()));
      if (outDir == null) {
        readOne(fs, path, conf, probes, seekTargets, out);
        continue;
      }
      // Many files in one JVM: DIR/<name without .hfile>.hbase.jsonl each; a file HBase cannot
      // read gets an "error" record and the others go on.
      String base = Paths.get(file).getFileName().toString().replaceFirst("\\.hfile$", "");
      Files.createDirectories(Paths.get(outDir));
      try (PrintStream ps = new PrintStream(
        new java.io.FileOutputStream(Paths.get(outDir, base + ".hbase.jsonl").toFile()), false,
        StandardCharsets.UTF_8)) {
        try {
          readOne(fs, path, conf, probes, seekTargets, ps);
        } catch (IOException | RuntimeException e) {
          failed++;
          ps.println("{\"kind\":\"error\",\"message\":" + Json.str(e.toString()) + "}");
          System.err.println("read: " + file + ": " + e);
        }
      }
    }
    if (failed > 0) {
      System.err.println("read: " + failed + " of " + a.positional().size() + " files failed");
      System.out.flush();
      System.exit(1);
    }
  }

  private static void readOne(FileSystem fs, Path path, Configuration conf, String probes,
    List<JsonObject> seekTargets, PrintStream out) throws IOException {
    int cellCount;
    BloomType bloomType;
    HFile.Reader reader = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf);
    try {
      out.println(trailer(reader.getTrailer(), path));
      for (Map.Entry<byte[], byte[]> e : reader.getHFileInfo().entrySet()) {
        out.println(Json.fileInfo(e.getKey(), e.getValue()));
      }
      cellCount = printCells(reader, conf, out);
      byte[] bt = reader.getHFileInfo().get(HStoreFile.BLOOM_FILTER_TYPE_KEY);
      bloomType = bt == null ? BloomType.NONE : BloomType.valueOf(Bytes.toString(bt));
    } finally {
      reader.close();
    }
    if (probes != null) {
      printBlooms(fs, path, conf, bloomType, probes, out);
    }
    if (!seekTargets.isEmpty()) {
      printSeeks(fs, path, conf, bloomType, seekTargets, out);
    }
    out.println(prettyPrinterCheck(conf, path, cellCount));
  }

  /**
   * Seeks as a Get or Scan does: StoreFileScanner#seek (seekAtOrAfter over HFileScanner#seekTo,
   * MVCC read point unlimited) to each target key, printing the first cell it lands on (null
   * past the end). A target is {"row":R} (first-on-row key) or a full key
   * {"row","family","qualifier","timestamp","type"}.
   */
  private static void printSeeks(FileSystem fs, Path path, Configuration conf, BloomType bloomType,
    List<JsonObject> targets, PrintStream out) throws IOException {
    StoreFileInfo info = new StoreFileInfo(conf, fs, fs.getFileStatus(path), (Reference) null);
    HStoreFile sf = new HStoreFile(info, bloomType, CacheConfig.DISABLED, new BloomFilterMetrics());
    sf.initReader();
    try {
      StoreFileReader r = sf.getReader();
      try (StoreFileScanner scanner =
        r.getStoreFileScanner(false, true, false, Long.MAX_VALUE, 0, false)) {
        for (JsonObject t : targets) {
          byte[] row = Bytes.toBytesBinary(t.get("row").getAsString());
          Cell key;
          if (t.has("family")) {
            key = new KeyValue(row, Bytes.toBytesBinary(t.get("family").getAsString()),
              Bytes.toBytesBinary(t.get("qualifier").getAsString()), t.get("timestamp").getAsLong(),
              KeyValue.Type.valueOf(t.get("type").getAsString()));
          } else {
            key = PrivateCellUtil.createFirstOnRow(row);
          }
          scanner.seek(key);
          out.println(Json.seek(t.toString(), scanner.peek()));
        }
      }
    } finally {
      sf.closeStoreFile(false);
    }
  }

  private static String trailer(FixedFileTrailer t, Path path) throws IOException {
    return "{\"kind\":\"trailer\",\"major\":" + t.getMajorVersion() + ",\"minor\":"
      + t.getMinorVersion() + ",\"entry_count\":" + t.getEntryCount() + ",\"compression\":"
      + Json.str(t.getCompressionCodec().name()) + ",\"data_index_count\":" + t.getDataIndexCount()
      + ",\"meta_index_count\":" + t.getMetaIndexCount() + ",\"num_data_index_levels\":"
      + t.getNumDataIndexLevels() + ",\"first_data_block_offset\":" + t.getFirstDataBlockOffset()
      + ",\"last_data_block_offset\":" + t.getLastDataBlockOffset() + ",\"file_info_offset\":"
      + t.getFileInfoOffset() + ",\"load_on_open_data_offset\":" + t.getLoadOnOpenDataOffset()
      + ",\"uncompressed_data_index_size\":" + t.getUncompressedDataIndexSize()
      + ",\"total_uncompressed_bytes\":" + t.getTotalUncompressedBytes() + ",\"comparator\":"
      + Json.str(storedComparatorName(path, t.getTrailerSize())) + "}";
  }

  /**
   * FixedFileTrailer reports the comparator class it resolved (CellComparatorImpl), not the
   * name stored in the file (KeyValue$KVComparator); we want the stored one, so parse the
   * trailer's protobuf with HBase's generated message class.
   */
  private static String storedComparatorName(Path path, int trailerSize) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(path.toUri().getPath(), "r")) {
      byte[] buf = new byte[trailerSize];
      f.seek(f.length() - trailerSize);
      f.readFully(buf);
      int magicLength = 8;
      FileTrailerProto p = FileTrailerProto.parseDelimitedFrom(
        new java.io.ByteArrayInputStream(buf, magicLength, trailerSize - magicLength));
      return p.getComparatorClassName();
    }
  }

  private static int printCells(HFile.Reader reader, Configuration conf, PrintStream out)
    throws IOException {
    int n = 0;
    try (HFileScanner scanner = reader.getScanner(conf, false, false)) {
      if (scanner.seekTo()) {
        do {
          out.println(Json.cell(scanner.getCell()));
          n++;
        } while (scanner.next());
      }
    }
    return n;
  }

  /** Opens the file as a RegionServer would (HStoreFile, CF Bloom type = the file's). */
  private static void printBlooms(FileSystem fs, Path path, Configuration conf, BloomType bloomType,
    String probeFile, PrintStream out) throws IOException {
    StoreFileInfo info = new StoreFileInfo(conf, fs, fs.getFileStatus(path), (Reference) null);
    HStoreFile sf = new HStoreFile(info, bloomType, CacheConfig.DISABLED, new BloomFilterMetrics());
    sf.initReader();
    try {
      StoreFileReader r = sf.getReader();
      for (String line : Files.readAllLines(Paths.get(probeFile), StandardCharsets.UTF_8)) {
        if (line.isBlank()) {
          continue;
        }
        JsonObject o = JsonParser.parseString(line).getAsJsonObject();
        byte[] row = Bytes.toBytesBinary(o.get("row").getAsString());
        byte[] family = Bytes.toBytesBinary(o.get("family").getAsString());
        JsonElement q = o.get("qualifier");
        byte[] qualifier = q == null || q.isJsonNull() ? null : Bytes.toBytesBinary(q.getAsString());
        out.println(Json.bloom("general", row, family, qualifier,
          HarnessBloomAccess.passesGeneralBloom(r, row, family, qualifier)));
        out.println(Json.bloom("delete_family", row, family, qualifier,
          r.passesDeleteFamilyBloomFilter(row, 0, row.length)));
      }
    } finally {
      sf.closeStoreFile(false);
    }
  }

  /**
   * HFilePrettyPrinter -k -m -v: full scan with HBase's own row-order check and meta dump.
   * Fails on a non-zero exit, any WARNING/ERROR line, or a scanned count that differs from ours.
   */
  private static String prettyPrinterCheck(Configuration conf, Path path, int cellCount) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
    HFilePrettyPrinter pp = new HFilePrettyPrinter(conf);
    pp.setPrintStreams(ps, ps);
    int rc;
    try {
      rc = pp.run(new String[] { "-k", "-m", "-v", "-f", path.toString() });
    } catch (RuntimeException e) {
      return Json.check(false, "HFilePrettyPrinter threw " + e);
    }
    List<String> problems = new ArrayList<>();
    boolean countSeen = false;
    for (String line : buf.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.contains("WARNING") || line.contains("ERROR")) {
        problems.add(line.trim());
      }
      if (line.startsWith("Scanned kv count -> ")) {
        countSeen = true;
        long scanned = Long.parseLong(line.substring("Scanned kv count -> ".length()).trim());
        if (scanned != cellCount) {
          problems.add("HFilePrettyPrinter scanned " + scanned + " cells, reader saw " + cellCount);
        }
      }
    }
    if (rc != 0) {
      problems.add("HFilePrettyPrinter exit code " + rc);
    }
    if (!countSeen) {
      problems.add("HFilePrettyPrinter printed no kv count");
    }
    return Json.check(problems.isEmpty(), String.join("; ", problems));
  }
}
