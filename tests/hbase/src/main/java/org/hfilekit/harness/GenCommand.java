package org.hfilekit.harness;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileBlockIndex;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.BloomFilterFactory;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * gen: writes one HFile through StoreFileWriter (the RegionServer's flush/compaction writer) and
 * next to it {@code NAME.cells.jsonl}, the cells that were appended, in canonical JSON.
 */
final class GenCommand {
  /** Fixed so that regenerated fixtures are byte-identical (CREATE_TIME_TS is in file info). */
  static final long CREATE_TIME = 1700000000000L;

  private GenCommand() {}

  /**
   * --cells-from FILE: canonical "cell" records (e.g. a .cells.jsonl), appended as given, in
   * file order (they must already be sorted), sequence ids and tags included.
   */
  static List<Cell> readCells(String file) throws IOException {
    List<Cell> out = new java.util.ArrayList<>();
    for (String line : Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonObject o = JsonParser.parseString(line).getAsJsonObject();
      List<Tag> tagList = new java.util.ArrayList<>();
      for (JsonElement t : o.getAsJsonArray("tags")) {
        JsonObject to = t.getAsJsonObject();
        tagList.add(new ArrayBackedTag((byte) to.get("type").getAsInt(),
          Bytes.toBytesBinary(to.get("value").getAsString())));
      }
      KeyValue kv = new KeyValue(Bytes.toBytesBinary(o.get("row").getAsString()),
        Bytes.toBytesBinary(o.get("family").getAsString()),
        Bytes.toBytesBinary(o.get("qualifier").getAsString()), o.get("timestamp").getAsLong(),
        KeyValue.Type.valueOf(o.get("type").getAsString()),
        Bytes.toBytesBinary(o.get("value").getAsString()), tagList);
      kv.setSequenceId(o.get("seqid").getAsLong());
      out.add(kv);
    }
    return out;
  }

  static void run(Args a) throws IOException {
    String out = a.require("out");
    Compression.Algorithm compression = Compression.getCompressionAlgorithmByName(
      a.get("compression", "none").toLowerCase(Locale.ROOT));
    String codecClass = a.get("codec-class", null);
    DataBlockEncoding encoding = DataBlockEncoding.valueOf(a.get("encoding", "NONE").toUpperCase(Locale.ROOT));
    BloomType bloom = BloomType.valueOf(a.get("bloom", "NONE").toUpperCase(Locale.ROOT));
    ChecksumType checksum = ChecksumType.valueOf(a.get("checksum", "CRC32C").toUpperCase(Locale.ROOT));
    int bytesPerChecksum = a.getInt("bytes-per-checksum", 16384);
    int blockSize = a.getInt("block-size", 65536);
    boolean tags = a.getBool("tags", true);
    boolean compressTags = a.getBool("compress-tags", true);
    int indexMaxSize = a.getInt("index-max-size", 128 * 1024);
    int indexMinEntries = a.getInt("index-min-entries", 16);
    int bloomBlockSize = a.getInt("bloom-block-size", 128 * 1024);
    int prefixLength = a.getInt("bloom-prefix-length", 7);
    int cells = a.getInt("cells", 200);
    long seed = a.getLong("seed", 1);
    int valueMax = a.getInt("value-max", 64);
    // Default: a bit more than a block, so such values span more than one block's worth.
    int largeValue = a.getInt("large-value", blockSize + 100);
    byte[] family = Bytes.toBytes(a.get("family", "f"));
    String name = a.get("name", "out");
    String cellsFrom = a.get("cells-from", null);
    a.checkAllUsed();

    Configuration conf = HBaseConfiguration.create();
    Codecs.configure(conf, compression, codecClass);
    conf.setInt(HFileBlockIndex.MAX_CHUNK_SIZE_KEY, indexMaxSize);
    conf.setInt(HFileBlockIndex.MIN_INDEX_NUM_ENTRIES_KEY, indexMinEntries);
    conf.setInt(BloomFilterFactory.IO_STOREFILE_BLOOM_BLOCK_SIZE, bloomBlockSize);
    conf.setInt(BloomFilterUtil.PREFIX_LENGTH_KEY, prefixLength);

    // Same context shape as a RegionServer flush (HStore#createFileContext): MVCC always,
    // tags per column family, HBase checksums on.
    HFileContext ctx = new HFileContextBuilder().withCompression(compression)
      .withDataBlockEncoding(encoding).withIncludesMvcc(true).withIncludesTags(tags)
      .withCompressTags(compressTags).withHBaseCheckSum(true).withChecksumType(checksum)
      .withBytesPerCheckSum(bytesPerChecksum).withBlockSize(blockSize)
      .withColumnFamily(family).withTableName(Bytes.toBytes("hfilekit"))
      .withCellComparator(CellComparatorImpl.COMPARATOR).withCreateTime(CREATE_TIME).build();

    List<Cell> list = cellsFrom != null ? readCells(cellsFrom)
      : new CellGenerator(seed, family, tags, valueMax, largeValue).generate(cells);

    Files.createDirectories(Paths.get(out));
    Path path = new Path(Paths.get(out, name + ".hfile").toAbsolutePath().toString());
    FileSystem fs = FileSystem.getLocal(conf).getRaw(); // raw: no .crc side files
    fs.delete(path, false);
    StoreFileWriter writer = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
      .withFilePath(path).withFileContext(ctx).withBloomType(bloom)
      .withMaxKeyCount(list.size()).build();
    long maxSeqId = 0;
    for (Cell c : list) {
      writer.append(c);
      maxSeqId = Math.max(maxSeqId, c.getSequenceId());
    }
    // As at the end of a flush: MAX_SEQ_ID_KEY, MAJOR_COMPACTION_KEY, TIMERANGE, EARLIEST_PUT_TS.
    writer.appendMetadata(maxSeqId, false);
    writer.close();

    try (PrintWriter pw = new PrintWriter(Files.newBufferedWriter(
      Paths.get(out, name + ".cells.jsonl"), StandardCharsets.UTF_8))) {
      for (Cell c : list) {
        pw.print(Json.cell(c));
        pw.print('\n');
      }
    }
  }
}
