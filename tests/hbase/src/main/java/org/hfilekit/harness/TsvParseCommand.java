package org.hfilekit.harness;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code tsvparse --jar HBASE_MAPREDUCE_JAR CASES}: parses the lines of a case file (see
 * tests/hbase/tsv_cases.txt) with HBase's own {@code ImportTsv.TsvParser}, then takes the steps
 * {@code TsvImporterMapper.map} takes for each line (timestamp, cell visibility, cell TTL,
 * {@code new Put(row)}, one {@code KeyValue} per data field, {@code importtsv.skip.empty.columns}),
 * and prints one JSON line per case:
 *
 * <pre>
 * {"n":LINE,"ok":true,"row":R,"ts":N,"ttl":N,"vis":V|null,"cells":[[F,Q,V],...]}
 * {"n":LINE,"ok":false,"error":MESSAGE}
 * </pre>
 *
 * byte strings as Bytes.toStringBinary. hbase-mapreduce is loaded from the given jar (it is not a
 * dependency of the harness: 2.6.4 is served without its -hadoop3 twin), so its classes are
 * reached by reflection. hfilekit's tsv_parse_cases prints the same form from delimited_parser.
 *
 * Case file: {@code columns SPEC}, {@code separator HEXBYTE}, {@code skip-empty true|false},
 * {@code timestamp N} set the parser for the lines below; {@code same HEX} and
 * {@code diff HEX [why]} are lines (hex-encoded), {@code #} starts a comment.
 */
final class TsvParseCommand {
  private TsvParseCommand() {}

  static void run(Args args, PrintStream out) throws Exception {
    String jar = args.require("jar");
    args.checkAllUsed();
    if (args.positional().size() != 1) {
      throw new IllegalArgumentException("tsvparse takes one CASES file");
    }
    ClassLoader loader = new URLClassLoader(new URL[] { new File(jar).toURI().toURL() },
      TsvParseCommand.class.getClassLoader());
    Class<?> parserClass =
      Class.forName("org.apache.hadoop.hbase.mapreduce.ImportTsv$TsvParser", true, loader);
    Constructor<?> ctor = parserClass.getConstructor(String.class, String.class);
    Method parse = parserClass.getMethod("parse", byte[].class, int.class);
    Method getFamily = parserClass.getMethod("getFamily", int.class);
    Method getQualifier = parserClass.getMethod("getQualifier", int.class);
    String[] indexNames = { "getRowKeyColumnIndex", "getTimestampKeyColumnIndex",
      "getAttributesKeyColumnIndex", "getCellVisibilityColumnIndex", "getCellTTLColumnIndex" };

    String columns = null;
    String separator = "\t";
    boolean skipEmpty = false;
    long defaultTs = 1000;
    Object parser = null;
    int[] special = new int[indexNames.length];
    List<String> lines = Files.readAllLines(new File(args.positional().get(0)).toPath(),
      StandardCharsets.UTF_8);
    for (int n = 1; n <= lines.size(); n++) {
      String l = lines.get(n - 1).trim();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] w = l.split("\\s+", 3);
      switch (w[0]) {
        case "columns":
          columns = w[1];
          parser = null;
          continue;
        case "separator":
          separator = new String(Bytes.fromHex(w[1]), StandardCharsets.ISO_8859_1);
          parser = null;
          continue;
        case "skip-empty":
          skipEmpty = Boolean.parseBoolean(w[1]);
          continue;
        case "timestamp":
          defaultTs = Long.parseLong(w[1]);
          continue;
        case "same":
        case "diff":
          break;
        default:
          throw new IllegalArgumentException("line " + n + ": unknown directive " + w[0]);
      }
      if (parser == null) {
        parser = ctor.newInstance(columns, separator);
        for (int k = 0; k < indexNames.length; k++) {
          special[k] = (Integer) parserClass.getMethod(indexNames[k]).invoke(parser);
        }
      }
      byte[] line = w.length > 1 && !w[1].equals("-") ? Bytes.fromHex(w[1]) : new byte[0];
      StringBuilder sb = new StringBuilder("{\"n\":").append(n);
      try {
        Object parsed = call(parse, parser, line, line.length);
        Class<?> pl = parsed.getClass();
        int rowOff = (Integer) call(method(pl, "getRowKeyOffset"), parsed);
        int rowLen = (Integer) call(method(pl, "getRowKeyLength"), parsed);
        long ts = (Long) call(method(pl, "getTimestamp", long.class), parsed, defaultTs);
        String vis = (String) call(method(pl, "getCellVisibility"), parsed);
        long ttl = (Long) call(method(pl, "getCellTTL"), parsed);
        Put put = new Put(Bytes.copy(line, rowOff, rowLen));
        int count = (Integer) call(method(pl, "getColumnCount"), parsed);
        Method off = method(pl, "getColumnOffset", int.class);
        Method len = method(pl, "getColumnLength", int.class);
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          boolean skip = false;
          for (int s : special) {
            skip |= i == s;
          }
          int vo = (Integer) call(off, parsed, i);
          int vl = (Integer) call(len, parsed, i);
          if (skip || (skipEmpty && vl == 0)) {
            continue;
          }
          byte[] f = (byte[]) getFamily.invoke(parser, i);
          byte[] q = (byte[]) getQualifier.invoke(parser, i);
          KeyValue kv = new KeyValue(line, rowOff, rowLen, f, 0, f.length, q, 0, q.length, ts,
            KeyValue.Type.Put, line, vo, vl);
          put.add(kv);
          cells.add("[" + Json.bytes(f) + "," + Json.bytes(q) + ","
            + Json.str(Bytes.toStringBinary(line, vo, vl)) + "]");
        }
        sb.append(",\"ok\":true,\"row\":").append(Json.str(Bytes.toStringBinary(line, rowOff,
          rowLen))).append(",\"ts\":").append(ts).append(",\"ttl\":").append(ttl > 0 ? ttl : 0)
          .append(",\"vis\":").append(vis == null ? "null" : Json.str(vis))
          .append(",\"cells\":[").append(String.join(",", cells)).append("]}");
      } catch (BadLine e) {
        sb.append(",\"ok\":false,\"error\":").append(Json.str(String.valueOf(e.getMessage())))
          .append("}");
      } catch (IllegalArgumentException e) {
        // TsvImporterMapper catches IllegalArgumentException as a bad line too.
        sb.append(",\"ok\":false,\"error\":").append(Json.str(String.valueOf(e.getMessage())))
          .append("}");
      }
      out.println(sb);
    }
  }

  /** A BadTsvLineException or IllegalArgumentException thrown inside TsvParser. */
  private static final class BadLine extends Exception {
    BadLine(Throwable cause) {
      super(cause.getMessage(), cause);
    }
  }

  private static Method method(Class<?> c, String name, Class<?>... types) throws Exception {
    Method m = c.getDeclaredMethod(name, types);
    m.setAccessible(true);  // ParsedLine is package-private
    return m;
  }

  private static Object call(Method m, Object target, Object... a) throws Exception {
    try {
      return m.invoke(target, a);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      if (t instanceof IllegalArgumentException
          || t.getClass().getName().endsWith("BadTsvLineException")) {
        throw new BadLine(t);
      }
      throw e;
    }
  }
}
