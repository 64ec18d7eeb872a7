package org.hfilekit.harness;

import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The canonical JSON-lines records shared with hfilekit's C++ dump (see tests/hbase/README.md).
 * Objects are written by hand so that key order and spacing are fixed: no whitespace, keys in
 * the documented order, byte strings rendered with Bytes.toStringBinary.
 */
final class Json {
  private Json() {}

  /** Bytes.toStringBinary, then JSON string quoting (only '"' and '\' can occur). */
  static String bytes(byte[] b) {
    return str(Bytes.toStringBinary(b));
  }

  static String str(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  /** hfile-json(7)'s rule for integers: a number up to 2^53 - 1 in magnitude, else a string. */
  static String num(long v) {
    final long maxSafe = (1L << 53) - 1;
    return v >= -maxSafe && v <= maxSafe ? Long.toString(v) : "\"" + v + "\"";
  }

  static String cell(Cell c) {
    StringBuilder sb = new StringBuilder(128);
    sb.append("{\"kind\":\"cell\",\"row\":").append(bytes(CellUtil.cloneRow(c)));
    sb.append(",\"family\":").append(bytes(CellUtil.cloneFamily(c)));
    sb.append(",\"qualifier\":").append(bytes(CellUtil.cloneQualifier(c)));
    sb.append(",\"timestamp\":").append(num(c.getTimestamp()));
    sb.append(",\"type\":").append(str(KeyValue.Type.codeToType(c.getTypeByte()).name()));
    sb.append(",\"value\":").append(bytes(CellUtil.cloneValue(c)));
    sb.append(",\"tags\":[");
    List<Tag> tags = PrivateCellUtil.getTags(c);
    for (int i = 0; i < tags.size(); i++) {
      Tag t = tags.get(i);
      sb.append(i == 0 ? "" : ",").append("{\"type\":").append(t.getType() & 0xFF);
      sb.append(",\"value\":").append(bytes(Tag.cloneValue(t))).append('}');
    }
    sb.append("],\"seqid\":").append(num(c.getSequenceId())).append('}');
    return sb.toString();
  }

  static String fileInfo(byte[] key, byte[] value) {
    return "{\"kind\":\"fileinfo\",\"key\":" + bytes(key) + ",\"value\":" + bytes(value) + "}";
  }

  /** qualifier null = a whole-family probe (Get without columns); rendered as JSON null. */
  static String bloom(String filter, byte[] row, byte[] family, byte[] qualifier, boolean answer) {
    return "{\"kind\":\"bloom\",\"filter\":" + str(filter) + ",\"row\":" + bytes(row)
      + ",\"family\":" + bytes(family) + ",\"qualifier\":"
      + (qualifier == null ? "null" : bytes(qualifier)) + ",\"answer\":"
      + answer + "}";
  }

  /**
   * A seek: the target as given (its JSON object re-serialised by Gson, compact, keys in input
   * order) and the cell the scanner landed on, or null past the end.
   */
  static String seek(String targetJson, Cell at) {
    return "{\"kind\":\"seek\",\"target\":" + targetJson + ",\"at\":"
      + (at == null ? "null" : cell(at)) + "}";
  }

  static String check(boolean ok, String message) {
    return "{\"kind\":\"check\",\"ok\":" + ok + ",\"message\":" + str(message) + "}";
  }
}
