#include "region/region_info.h"

#include <cstdio>

#include "hfile/coding.h"
#include "fs_util.h"
#include "md5.h"
#include "pb_util.h"
#include "region_format.pb.h"
#include "hfile/escape.h"

namespace hfile::region {

std::string RegionInfo::NameWithoutEncodedSuffix() const {
  std::string name = table.ToString();
  name.push_back(',');
  name += start_key;
  name.push_back(',');
  name += std::to_string(region_id);
  if (replica_id > 0) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "_%04X", replica_id);
    name += buf;
  }
  return name;
}

bool RegionInfo::IsMeta() const {
  return table.namespace_name == kSystemNamespace && table.qualifier == "meta";
}

std::string RegionInfo::RegionName() const {
  std::string name = NameWithoutEncodedSuffix();
  if (IsMeta()) return name;
  return name + "." + EncodedName() + ".";
}

std::string RegionInfo::EncodedName() const {
  if (IsMeta() && replica_id == 0) return kMetaEncodedName;
  return Md5Hex(NameWithoutEncodedSuffix());
}

bool RegionInfo::ContainsRow(const Slice& row) const {
  if (Slice(start_key).compare(row) > 0) return false;
  return end_key.empty() || row.compare(Slice(end_key)) < 0;
}

namespace {

Status DecodeWritable(Slice in, RegionInfo* ri) {
  uint8_t version, offline, split;
  Slice end_key, region_name, start_key, table;
  uint64_t region_id;
  if (!GetFixed8(&in, &version) || version > 1 || !GetByteArray(&in, &end_key) ||
      !GetFixed8(&in, &offline) || !GetFixed64BE(&in, &region_id) ||
      !GetByteArray(&in, &region_name) || !GetFixed8(&in, &split) ||
      !GetByteArray(&in, &start_key)) {
    return Status::Corruption("malformed Writable RegionInfo");
  }
  if (version == 0) {  // 0.90: an HTableDescriptor follows; its name comes first.
    uint32_t htd_version;
    if (!GetFixed32BE(&in, &htd_version)) return Status::Corruption("malformed Writable RegionInfo");
  }
  if (!GetByteArray(&in, &table)) return Status::Corruption("malformed Writable RegionInfo");
  // Pre-namespace names: "-ROOT-" / ".META." are system tables; everything else is default.
  ri->table = TableName{};
  if (table == Slice(".META.") || table == Slice("-ROOT-")) ri->table.namespace_name = kSystemNamespace;
  ri->table.qualifier = table.ToString();
  ri->start_key = start_key.ToString();
  ri->end_key = end_key.ToString();
  ri->region_id = region_id;
  ri->offline = offline != 0;
  ri->split = split != 0;
  ri->replica_id = 0;
  ri->has_replica_field = false;
  ri->from_writable = true;
  return Status::OK();
}

void ToProto(const RegionInfo& ri, pb::RegionInfoProto* p) {
  p->set_region_id(ri.region_id);
  p->mutable_table_name()->set_namespace_(ri.table.namespace_name);
  p->mutable_table_name()->set_qualifier(ri.table.qualifier);
  p->set_start_key(ri.start_key);
  p->set_end_key(ri.end_key);
  p->set_offline(ri.offline);
  p->set_split(ri.split);
  if (ri.has_replica_field) p->set_replica_id(ri.replica_id);
}

// The RegionInfo message itself (what follows "PBUF" and, in a file, the length prefix).
Status DecodeRegionInfoProto(const Slice& message, RegionInfo* ri) {
  pb::RegionInfoProto p;
  if (!p.ParseFromArray(message.data(), static_cast<int>(message.size())))
    return Status::Corruption("RegionInfo: malformed protobuf");
  ri->table.namespace_name = p.table_name().namespace_();
  ri->table.qualifier = p.table_name().qualifier();
  ri->start_key = p.start_key();
  ri->end_key = p.end_key();
  ri->region_id = p.region_id();
  ri->offline = p.offline();
  ri->split = p.split();
  ri->replica_id = p.replica_id();
  ri->has_replica_field = p.has_replica_id();
  ri->from_writable = false;
  return Status::OK();
}

}  // namespace

Status RegionInfo::DecodeFrom(const Slice& file_contents) {
  Slice in = file_contents;
  if (!in.starts_with(kPbMagic)) return DecodeWritable(in, this);
  in.remove_prefix(4);
  uint32_t len;
  if (!GetVarint32(&in, &len) || len > in.size())
    return Status::Corruption("RegionInfo: bad length prefix");
  return DecodeRegionInfoProto(Slice(in.data(), len), this);
}

Status RegionInfo::DecodeMetaValueFrom(const Slice& value) {
  if (!value.starts_with(kPbMagic))
    return Status::Corruption("info:regioninfo: no PBUF magic");
  return DecodeRegionInfoProto(Slice(value.data() + 4, value.size() - 4), this);
}

void RegionInfo::EncodeTo(std::string* dst) const {
  pb::RegionInfoProto p;
  ToProto(*this, &p);
  std::string body = p.SerializeAsString();
  dst->append(kPbMagic);
  PutVarint32(dst, static_cast<uint32_t>(body.size()));
  dst->append(body);
}

void RegionInfo::EncodeMetaValueTo(std::string* dst) const {
  pb::RegionInfoProto p;
  ToProto(*this, &p);
  dst->append(kPbMagic);
  dst->append(p.SerializeAsString());
}

std::string RegionInfo::ToString() const {
  return "{ENCODED => " + EncodedName() + ", NAME => '" + ToStringBinary(RegionName()) +
         "', STARTKEY => '" + ToStringBinary(start_key) + "', ENDKEY => '" +
         ToStringBinary(end_key) + "'}";
}

Result<RegionInfo> ReadRegionInfoFile(const std::string& path) {
  HFILE_ASSIGN_OR_RETURN(std::string data, ReadWholeFile(path));
  RegionInfo ri;
  HFILE_RETURN_IF_ERROR(ri.DecodeFrom(data).WithContext(path));
  return ri;
}

}  // namespace hfile::region
