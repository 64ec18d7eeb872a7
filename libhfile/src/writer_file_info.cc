// The file info HBase writes at close. Sources (apache/hbase, branch-2.6):
//   io/hfile/HFileWriterImpl.java finishFileInfo + close: LASTKEY (last key), AVG_KEY_LEN =
//     sum(key length) / entries (no +4: PrivateCellUtil.estimatedSerializedSizeOfKey is the
//     key length; a 2.6.4 file with 21-byte keys says 21), CREATE_TIME_TS, AVG_VALUE_LEN,
//     KEY_OF_BIGGEST_CELL + LEN_OF_BIGGEST_CELL (int64: 4 + KeyValue length with tags, the
//     first cell of the largest size; 2.6), MAX_TAGS_LEN + TAGS_COMPRESSED (encoding != NONE &&
//     COMPRESS_TAGS, so true for ROW_INDEX_V1 too) iff tags are included, MAX_MEMSTORE_TS_KEY +
//     KEY_VALUE_VERSION iff MVCC is included, DATA_BLOCK_ENCODING (saveMetadata) unless NONE.
//   regionserver/StoreFileWriter.java: BLOOM_FILTER_TYPE, BLOOM_FILTER_PARAM (ROWPREFIX only),
//     LAST_BLOOM_KEY when the general bloom has keys; DELETE_FAMILY_COUNT always; HISTORICAL =
//     false (2.6 close()); appendMetadata: MAX_SEQ_ID_KEY, MAJOR_COMPACTION_KEY,
//     COMPACTION_EVENT_KEY ("PBUF" + CompactionEventTracker), TIMERANGE, EARLIEST_PUT_TS.
//   mapreduce/HFileOutputFormat2.java: BULKLOAD_TIMESTAMP, BULKLOAD_SOURCE_TASK,
//     MAJOR_COMPACTION_KEY, EXCLUDE_FROM_MINOR_COMPACTION, TIMERANGE, EARLIEST_PUT_TS.
#include "hfile/coding.h"
#include "writer_internal.h"

namespace hfile {

namespace {


}  // namespace

void Writer::Rep::BuildFileInfo(FileInfo* info) const {
  namespace k = fileinfo;
  const WriterOptions& o = options;
  if (o.include_mvcc) {
    info->SetInt64(k::kMaxMemstoreTs, static_cast<int64_t>(max_memstore_ts));
    info->SetInt32(k::kKeyValueVersion, k::kKeyValueVersionWithMvcc);
  }
  if (entry_count > 0) info->Set(k::kLastKey, last_key.slice());
  const int64_t n = static_cast<int64_t>(entry_count);
  info->SetInt32(k::kAvgKeyLen, n == 0 ? 0 : static_cast<int32_t>(total_key_length / n));
  info->SetInt64(k::kCreateTimeTs, o.create_time_ms);
  info->SetInt32(k::kAvgValueLen, n == 0 ? 0 : static_cast<int32_t>(total_value_length / n));
  if (o.flavor == HBaseFlavor::k2_6 && entry_count > 0) {
    info->Set(k::kKeyOfBiggestCell, key_of_biggest_cell);
    info->SetInt64(k::kLenOfBiggestCell, len_of_biggest_cell);
  }
  if (o.include_tags) {
    info->SetInt32(k::kMaxTagsLen, static_cast<int32_t>(max_tags_length));
    info->SetBool(k::kTagsCompressed, o.encoding != DataBlockEncoding::kNone && o.compress_tags);
  }
  if (o.encoding != DataBlockEncoding::kNone) {
    info->Set(k::kDataBlockEncoding, DataBlockEncodingName(o.encoding));
  }
  if (o.store_file) {
    if (general_bloom && general_bloom->key_count() > 0) {
      info->Set(k::kBloomFilterType, BloomTypeName(o.bloom_type));
      if (o.bloom_type == BloomType::kRowPrefixFixedLength) {
        info->SetInt32(k::kBloomFilterParam, o.bloom_prefix_length);
      }
      // ROW: the last row added is the last cell's (AddToBlooms keeps no copy of it).
      info->Set(k::kLastBloomKey, o.bloom_type == BloomType::kRow ? KeyRow(last_key.slice())
                                                                  : Slice(last_bloom_key));
    }
    info->SetInt64(k::kDeleteFamilyCount, delete_family_count);
    if (o.flavor == HBaseFlavor::k2_6) info->SetBool(k::kHistorical, false);
  }
  if (o.max_seq_id) info->SetInt64(k::kMaxSeqId, *o.max_seq_id);
  if (o.major_compaction) info->SetBool(k::kMajorCompaction, *o.major_compaction);
  if (o.compaction_event) {
    std::string v;
    EncodeCompactionEvent(*o.compaction_event, &v);
    info->Set(k::kCompactionEvent, v);
  }
  if (o.mob_cells_count) info->SetInt64(k::kMobCellsCount, *o.mob_cells_count);
  if (o.bulkload_timestamp) info->SetInt64(k::kBulkloadTimestamp, *o.bulkload_timestamp);
  if (o.bulkload_source_task) info->Set(k::kBulkloadSourceTask, *o.bulkload_source_task);
  if (o.exclude_from_minor_compaction) {
    info->SetBool(k::kExcludeFromMinorCompaction, *o.exclude_from_minor_compaction);
  }
  if (o.track_timestamps) {
    std::string tr;
    EncodeTimeRange(time_range, &tr);
    info->Set(k::kTimeRange, tr);
    info->SetInt64(k::kEarliestPutTs, earliest_put_ts);
  }
  for (const auto& [key, value] : o.extra_file_info) info->Set(key, value);
}

}  // namespace hfile
