package org.hfilekit.harness;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.compress.Compression;

/**
 * Chooses the codec class behind each HBase compression algorithm. A plain JVM has no native
 * libhadoop, so every algorithm is pointed at a pure-Java (or JNI-bundling) implementation.
 */
final class Codecs {
  private Codecs() {}

  /** Config key HBase reads for an algorithm's codec class, e.g. hbase.io.compress.zstd.codec. */
  static String codecKey(Compression.Algorithm alg) {
    return "hbase.io.compress." + alg.getName() + ".codec";
  }

  /** Default codec class per algorithm used by this harness (null: keep HBase's default). */
  static String defaultCodecClass(Compression.Algorithm alg) {
    switch (alg) {
      case SNAPPY:
        return "org.apache.hadoop.hbase.io.compress.xerial.SnappyCodec";
      case ZSTD:
        return "org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec";
      default:
        // GZ: HBase's ReusableStreamGzipCodec; LZ4: Hadoop Lz4Codec (lz4-java); LZO:
        // com.hadoop.compression.lzo.LzoCodec, here the pure-Java port from lzo-hadoop;
        // BZIP2: Hadoop BZip2Codec in java-builtin mode; LZMA/BROTLI: HBase defaults.
        return null;
    }
  }

  /** Applies the harness defaults, then an optional override for one algorithm. */
  static void configure(Configuration conf, Compression.Algorithm override, String overrideClass) {
    conf.set("io.compression.codec.bzip2.library", "java-builtin");
    for (Compression.Algorithm alg : Compression.Algorithm.values()) {
      String cls = alg == override && overrideClass != null ? overrideClass : defaultCodecClass(alg);
      if (cls != null) {
        conf.set(codecKey(alg), cls);
      }
    }
    // Algorithm caches its codec, built from a Configuration of its own at class-load time;
    // reload() makes it use ours.
    for (Compression.Algorithm alg : Compression.Algorithm.values()) {
      if (alg != Compression.Algorithm.NONE) {
        try {
          alg.reload(conf);
        } catch (RuntimeException e) {
          // The codec class is missing or unusable here; only fatal if a file needs it.
        }
      }
    }
  }
}
