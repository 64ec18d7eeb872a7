package org.hfilekit.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.Reference;
import org.apache.hadoop.hbase.io.hfile.BloomFilterMetrics;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegionFileSystem;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RegionSplitRestriction;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.StoreUtils;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.FSTableDescriptors;

/**
 * midkey: HBase's own mid key and split-point choice, for tests/hbase/check_midkey.sh.
 *
 * <pre>
 *   midkey [--files LIST] [--regions LIST]
 * </pre>
 *
 * LIST files hold one path per line (a region: its directory). Per file, one JSON line with
 * HFileReaderImpl.midKey() (full key and row, hex), the index level count and
 * StoreUtils.getFileSplitPoint (the split row HStore takes from that file). Per region: every
 * store as HStore.getSplitPoint sees it (references: none; else StoreUtils.getSplitPoint over
 * the files in StoreFileComparators.SEQ_ID order, HStore.getSize = the sum of reader lengths),
 * then RegionSplitPolicy.getSplitPoint's choice over the stores in family-name order, the
 * table's RegionSplitRestriction and HRegion.checkSplit's region-range check. StoreUtils and
 * StoreFileComparators are package-private: reached by reflection, so the rules run are HBase's.
 * Only the store loop of RegionSplitPolicy (it needs a live HRegion) is restated here.
 */
final class MidKeyCommand {
  private MidKeyCommand() {}

  static void run(Args a, PrintStream out) throws Exception {
    String files = a.get("files", null);
    String regions = a.get("regions", null);
    a.checkAllUsed();
    if (files == null && regions == null) {
      throw new IllegalArgumentException("usage: midkey [--files LIST] [--regions LIST]");
    }
    Configuration conf = HBaseConfiguration.create();
    Codecs.configure(conf, null, null);
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    if (files != null) {
      for (String f : lines(files)) {
        try {
          out.println(fileLine(fs, conf, f));
        } catch (Exception | Error e) {
          out.println("{\"kind\":\"file\",\"path\":" + Json.str(f) + ",\"error\":"
            + Json.str(e.toString()) + "}");
        }
      }
    }
    if (regions != null) {
      for (String r : lines(regions)) {
        try {
          out.println(regionLine(fs, conf, r));
        } catch (Exception | Error e) {
          out.println("{\"kind\":\"region\",\"path\":" + Json.str(r) + ",\"error\":"
            + Json.str(e.toString()) + "}");
        }
      }
    }
  }

  private static List<String> lines(String file) throws IOException {
    List<String> out = new ArrayList<>();
    for (String l : Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
      if (!l.isBlank()) {
        out.add(l.trim());
      }
    }
    return out;
  }

  private static String hex(byte[] b) {
    return b == null ? "null" : "\"" + Bytes.toHex(b) + "\"";
  }

  private static Path qualified(FileSystem fs, String p) {
    return fs.makeQualified(new Path(Paths.get(p).toAbsolutePath().toString()));
  }

  private static HStoreFile openStoreFile(FileSystem fs, Configuration conf, Path path)
    throws IOException {
    BloomType bloomType;
    HFile.Reader reader = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf);
    try {
      byte[] bt = reader.getHFileInfo().get(HStoreFile.BLOOM_FILTER_TYPE_KEY);
      bloomType = bt == null ? BloomType.NONE : BloomType.valueOf(Bytes.toString(bt));
    } finally {
      reader.close();
    }
    StoreFileInfo info = new StoreFileInfo(conf, fs, fs.getFileStatus(path), (Reference) null);
    HStoreFile sf = new HStoreFile(info, bloomType, CacheConfig.DISABLED, new BloomFilterMetrics());
    sf.initReader();
    return sf;
  }

  private static Method method(String name, Class<?>... types) throws Exception {
    Method m = StoreUtils.class.getDeclaredMethod(name, types);
    m.setAccessible(true);
    return m;
  }

  @SuppressWarnings("unchecked")
  private static Optional<byte[]> fileSplitPoint(HStoreFile sf, CellComparator c)
    throws Exception {
    return (Optional<byte[]>) method("getFileSplitPoint", HStoreFile.class, CellComparator.class)
      .invoke(null, sf, c);
  }

  @SuppressWarnings("unchecked")
  private static Optional<byte[]> storeSplitPoint(Collection<HStoreFile> files, CellComparator c)
    throws Exception {
    return (Optional<byte[]>) method("getSplitPoint", Collection.class, CellComparator.class)
      .invoke(null, files, c);
  }

  @SuppressWarnings("unchecked")
  private static Optional<HStoreFile> largestFile(Collection<HStoreFile> files) throws Exception {
    return (Optional<HStoreFile>) method("getLargestFile", Collection.class).invoke(null, files);
  }

  @SuppressWarnings("unchecked")
  private static Comparator<HStoreFile> seqIdOrder() throws Exception {
    Class<?> k = Class.forName("org.apache.hadoop.hbase.regionserver.StoreFileComparators");
    Field f = k.getDeclaredField("SEQ_ID");
    f.setAccessible(true);
    return (Comparator<HStoreFile>) f.get(null);
  }

  private static String fileLine(FileSystem fs, Configuration conf, String file) throws Exception {
    Path path = qualified(fs, file);
    int levels;
    byte[] mid = null;
    byte[] midRow = null;
    HFile.Reader reader = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf);
    try {
      levels = reader.getTrailer().getNumDataIndexLevels();
      if (reader.getEntries() > 0 || reader.getFirstKey().isPresent()) {
        Optional<Cell> m = reader.midKey().map(c -> (Cell) c);
        if (m.isPresent()) {
          mid = PrivateCellUtil.getCellKeySerializedAsKeyValueKey(m.get());
          midRow = CellUtil.cloneRow(m.get());
        }
      }
    } finally {
      reader.close();
    }
    byte[] split = null;
    String splitError = null;
    HStoreFile sf = openStoreFile(fs, conf, path);
    try {
      Optional<byte[]> s = fileSplitPoint(sf, sf.getReader().getComparator());
      split = s.orElse(null);
    } catch (java.lang.reflect.InvocationTargetException e) {
      splitError = e.getCause().toString(); // HStore.getSplitPoint logs and returns none
    } finally {
      sf.closeStoreFile(true);
    }
    return "{\"kind\":\"file\",\"path\":" + Json.str(file) + ",\"levels\":" + levels
      + ",\"midkey\":" + hex(mid) + ",\"midrow\":" + hex(midRow) + ",\"split_row\":" + hex(split)
      + (splitError == null ? "" : ",\"split_error\":" + Json.str(splitError)) + "}";
  }

  private static String regionLine(FileSystem fs, Configuration conf, String dir)
    throws Exception {
    Path regionDir = qualified(fs, dir);
    RegionInfo info = null;
    if (fs.exists(new Path(regionDir, ".regioninfo"))) {
      info = HRegionFileSystem.loadRegionInfoFileContent(fs, regionDir);
    }
    TableDescriptor td = null;
    try {
      td = FSTableDescriptors.getTableDescriptorFromFs(fs, regionDir.getParent());
    } catch (IOException e) {
      // no descriptor: families are the region's directories, no restriction
    }
    // HRegion.stores: a map in family-name byte order.
    TreeMap<byte[], Path> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (FileStatus st : fs.listStatus(regionDir)) {
      String n = st.getPath().getName();
      if (!st.isDirectory() || n.startsWith(".") || n.equals("recovered.edits")) {
        continue;
      }
      if (td != null && !td.hasColumnFamily(Bytes.toBytes(n))) {
        continue;
      }
      families.put(Bytes.toBytes(n), st.getPath());
    }
    StringBuilder sb = new StringBuilder("{\"kind\":\"region\",\"path\":").append(Json.str(dir))
      .append(",\"families\":[");
    boolean anyReferences = false;
    byte[] chosen = null;
    String chosenFamily = null;
    long largestStoreSize = 0;
    boolean firstFamily = true;
    Comparator<HStoreFile> order = seqIdOrder();
    List<HStoreFile> opened = new ArrayList<>();
    try {
      for (byte[] fam : families.keySet()) {
        List<HStoreFile> files = new ArrayList<>();
        boolean refs = false;
        long refSize = 0;
        for (FileStatus st : fs.listStatus(families.get(fam))) {
          String n = st.getPath().getName();
          if (st.isDirectory() || n.startsWith(".")) {
            continue;
          }
          if (StoreFileInfo.isReference(st.getPath())) {
            // StoreUtils.hasReferences; its reader's length is the referred file's.
            refs = true;
            refSize += fs.getFileStatus(StoreFileInfo.getReferredToFile(st.getPath())).getLen();
            continue;
          }
          HStoreFile sf = openStoreFile(fs, conf, st.getPath());
          opened.add(sf);
          files.add(sf);
        }
        files.sort(order);
        long size = refSize;
        for (HStoreFile sf : files) {
          size += sf.getReader().length();
        }
        Optional<byte[]> sp = Optional.empty();
        String largest = null;
        if (!refs && !files.isEmpty()) {
          try {
            sp = storeSplitPoint(files, files.get(0).getReader().getComparator());
          } catch (java.lang.reflect.InvocationTargetException e) {
            sp = Optional.empty(); // HStore.getSplitPoint: logged, none
          }
          largest = largestFile(files).map(f -> f.getPath().getName()).orElse(null);
        }
        anyReferences |= refs;
        // RegionSplitPolicy.getSplitPoint
        if (sp.isPresent() && largestStoreSize < size) {
          chosen = sp.get();
          chosenFamily = Bytes.toString(fam);
          largestStoreSize = size;
        }
        sb.append(firstFamily ? "" : ",").append("{\"family\":").append(Json.str(Bytes.toString(fam)))
          .append(",\"store_size\":").append(size).append(",\"references\":").append(refs)
          .append(",\"largest\":").append(largest == null ? "null" : Json.str(largest))
          .append(",\"split_row\":").append(hex(sp.orElse(null))).append("}");
        firstFamily = false;
      }
    } finally {
      for (HStoreFile sf : opened) {
        sf.closeStoreFile(true);
      }
    }
    // RegionSplitPolicy.canSplit: not meta, every store without references.
    if ((info != null && info.isMetaRegion()) || anyReferences) {
      chosen = null;
      chosenFamily = null;
    }
    // HRegion.checkSplit: the restriction, then checkRow; SplitTableRegionProcedure: not the
    // start key.
    if (chosen != null && chosen.length > 0 && td != null) {
      chosen = RegionSplitRestriction.create(td, conf).getRestrictedSplitPoint(chosen);
    }
    if (chosen != null && info != null
      && (!info.containsRow(chosen) || Bytes.equals(chosen, info.getStartKey()))) {
      chosen = null;
      chosenFamily = null;
    }
    if (chosen != null && td != null && !td.isSplitEnabled()) {
      chosen = null;
      chosenFamily = null;
    }
    sb.append("],\"split_row\":").append(hex(chosen)).append(",\"family\":")
      .append(chosenFamily == null ? "null" : Json.str(chosenFamily)).append("}");
    return sb.toString();
  }
}
