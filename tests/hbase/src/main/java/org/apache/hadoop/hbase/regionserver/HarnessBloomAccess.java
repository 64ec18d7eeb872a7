package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.NavigableSet;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;

/**
 * Lives in HBase's package only to reach StoreFileReader#passesBloomFilter, which is
 * package-private: it is the exact decision a RegionServer makes for a Get (ROW, ROWCOL and
 * ROWPREFIX_FIXED_LENGTH handling, LAST_BLOOM_KEY range check included).
 */
public final class HarnessBloomAccess {
  private HarnessBloomAccess() {}

  /**
   * Would a Get of {@code row} (restricted to {@code family:qualifier}, or to the whole family
   * when qualifier is null) consult this store file, according to its general Bloom filter?
   */
  public static boolean passesGeneralBloom(StoreFileReader reader, byte[] row, byte[] family,
    byte[] qualifier) throws IOException {
    Get get = new Get(row);
    if (qualifier == null) {
      get.addFamily(family);
    } else {
      get.addColumn(family, qualifier);
    }
    Scan scan = new Scan(get);
    NavigableSet<byte[]> columns = scan.getFamilyMap().get(family);
    return reader.passesBloomFilter(scan, columns);
  }
}
