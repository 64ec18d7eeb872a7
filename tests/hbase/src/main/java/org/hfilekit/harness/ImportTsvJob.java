package org.hfilekit.harness;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.GenericOptionsParser;

/**
 * {"op":"mapreduce","tool":"ImportTsv","args":[-Dk=v..., TABLE, INPUT]}: HBase's ImportTsv job,
 * reporting its counters, which ImportTsv's own run() only logs. The job is the one ImportTsv's
 * run() submits: the same generic-option parsing, the one job timestamp it sets when
 * importtsv.timestamp is not given, then ImportTsv.createSubmittableJob (protected, so called by
 * reflection) and waitForCompletion. run()'s column-spec checks are left out: they only reject a
 * spec before any job starts, and the scripts pass valid ones. Prints
 * {"kind":"mapreduce","tool":"ImportTsv","exit":N,"seconds":S,"bad_lines":B,
 * "map_input_records":L,"map_output_records":P,"reduce_output_records":C}: B is the mapper's
 * "ImportTsv"/"Bad Lines" counter, L the lines read, P the Puts, C the cells written into the
 * HFiles (with -Dimporttsv.bulk.output). S covers the whole job, connection to HBase included.
 */
final class ImportTsvJob {
  private ImportTsvJob() {}

  static int run(Configuration conf, String[] argv, PrintStream out) throws Exception {
    long start = System.nanoTime();
    String[] args = new GenericOptionsParser(conf, argv).getRemainingArgs();
    if (args.length != 2) {
      throw new IllegalArgumentException("mapreduce ImportTsv: want TABLE INPUT after the -D options");
    }
    conf.setLong("importtsv.timestamp",
      conf.getLong("importtsv.timestamp", System.currentTimeMillis()));
    Class<?> tool = Class.forName("org.apache.hadoop.hbase.mapreduce.ImportTsv");
    Method create =
      tool.getDeclaredMethod("createSubmittableJob", Configuration.class, String[].class);
    create.setAccessible(true);
    Job job;
    try {
      job = (Job) create.invoke(null, conf, args);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    }
    boolean ok = job.waitForCompletion(false);
    double seconds = (System.nanoTime() - start) / 1e9;
    Counters c = job.getCounters();
    int rc = ok ? 0 : 1;
    out.println("{\"kind\":\"mapreduce\",\"tool\":\"ImportTsv\",\"exit\":" + rc
      + ",\"seconds\":" + String.format("%.3f", seconds)
      + ",\"bad_lines\":" + c.findCounter("ImportTsv", "Bad Lines").getValue()
      + ",\"map_input_records\":" + c.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue()
      + ",\"map_output_records\":" + c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue()
      + ",\"reduce_output_records\":" + c.findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).getValue()
      + "}");
    return rc;
  }
}
