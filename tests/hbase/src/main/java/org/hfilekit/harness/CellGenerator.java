package org.hfilekit.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.TagType;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Seeded pseudo-random cells shaped like a store file's content: several rows, each with
 * several qualifiers and versions, every cell type, empty qualifiers, empty and large values,
 * optional tags, and MVCC sequence ids. The same seed always yields the same cells.
 */
final class CellGenerator {
  /** Tag type with no meaning to HBase, to have a second, non-TTL tag type in the files. */
  static final byte CUSTOM_TAG_TYPE = (byte) 101;

  private final Random rnd;
  private final byte[] family;
  private final boolean tags;
  private final int valueMax;
  private final int largeValue;

  /**
   * @param largeValue size of the occasional value meant to exceed a data block (block size + a bit)
   */
  CellGenerator(long seed, byte[] family, boolean tags, int valueMax, int largeValue) {
    this.rnd = new Random(seed);
    this.family = family;
    this.tags = tags;
    this.valueMax = valueMax;
    this.largeValue = largeValue;
  }

  /** Returns {@code n} distinct cells sorted with CellComparatorImpl (seqid included). */
  List<Cell> generate(int n) {
    TreeSet<Cell> sorted = new TreeSet<>(CellComparatorImpl.COMPARATOR);
    byte[][] rows = rows(Math.max(1, n / 8));
    byte[][] qualifiers = qualifiers();
    long[] timestamps = {1700000000000L, 1700000000001L, 1700000005000L, 1700000000000L + 86400000L,
      1L, 0L, 255L, 1L << 40};
    // Bounded attempts: duplicate draws are dropped, so very large n may yield slightly fewer.
    for (int attempts = 0; sorted.size() < n && attempts < n * 20; attempts++) {
      byte[] row = rows[rnd.nextInt(rows.length)];
      long ts = timestamps[rnd.nextInt(timestamps.length)];
      KeyValue.Type type = pickType();
      byte[] qualifier = type == KeyValue.Type.DeleteFamily
        || type == KeyValue.Type.DeleteFamilyVersion
          ? new byte[0]
          : qualifiers[rnd.nextInt(qualifiers.length)];
      byte[] value = type == KeyValue.Type.Put ? value() : new byte[0];
      KeyValue kv = new KeyValue(row, 0, row.length, family, 0, family.length, qualifier, 0,
        qualifier.length, ts, type, value, 0, value.length, tags ? tags() : null);
      // Most cells carry a flush-style sequence id; a few carry 0 as compacted cells do.
      kv.setSequenceId(rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(100000));
      sorted.add(kv);
    }
    return new ArrayList<>(sorted);
  }

  private KeyValue.Type pickType() {
    int r = rnd.nextInt(100);
    if (r < 70) {
      return KeyValue.Type.Put;
    } else if (r < 79) {
      return KeyValue.Type.Delete;
    } else if (r < 88) {
      return KeyValue.Type.DeleteColumn;
    } else if (r < 94) {
      return KeyValue.Type.DeleteFamily;
    }
    return KeyValue.Type.DeleteFamilyVersion;
  }

  /** Mostly "row-NNNNN", plus rows that need \xNN / quote / backslash escaping in dumps. */
  private byte[][] rows(int count) {
    byte[][] rows = new byte[count][];
    for (int i = 0; i < count; i++) {
      switch (i % 7) {
        case 3:
          rows[i] = Bytes.add(Bytes.toBytes(String.format("row-%05d", i)), new byte[] { 0, (byte) 0xFF });
          break;
        case 5:
          rows[i] = Bytes.toBytes(String.format("row-%05d\"\\q", i));
          break;
        default:
          rows[i] = Bytes.toBytes(String.format("row-%05d", i));
      }
    }
    return rows;
  }

  private static byte[][] qualifiers() {
    return new byte[][] { new byte[0], Bytes.toBytes("a"), Bytes.toBytes("q1"), Bytes.toBytes("q2"),
      Bytes.toBytes("qualifier-long-0123456789"), new byte[] { (byte) 0x80, 0x01, 0x7F } };
  }

  private byte[] value() {
    int r = rnd.nextInt(100);
    int len;
    if (r < 5) {
      len = 0;
    } else if (r < 7) {
      len = largeValue;
    } else {
      len = rnd.nextInt(valueMax + 1);
    }
    byte[] v = new byte[len];
    // Mostly text-like (compressible; repeats give FAST_DIFF's SAME_VALUE), some random bytes.
    // Large values are always text-like: as \xNN escapes they would bloat the JSON fixtures.
    if (len == largeValue || rnd.nextInt(4) != 0) {
      for (int i = 0; i < len; i++) {
        v[i] = (byte) ('a' + (i % 26));
      }
    } else {
      rnd.nextBytes(v);
    }
    return v;
  }

  /** 0–2 tags; values repeat across cells so tag-dictionary compression gets hits. */
  private List<Tag> tags() {
    List<Tag> list = new ArrayList<>();
    int n = rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      if (rnd.nextBoolean()) {
        long ttlMs = 1000L * (1 + rnd.nextInt(3)) * 3600;
        list.add(new ArrayBackedTag(TagType.TTL_TAG_TYPE, Bytes.toBytes(ttlMs)));
      } else {
        list.add(new ArrayBackedTag(CUSTOM_TAG_TYPE, Bytes.toBytes("tag-" + rnd.nextInt(4))));
      }
    }
    return list;
  }
}
