#include "region/snapshot.h"

#include "fs_util.h"
#include "pb_util.h"
#include "region_format.pb.h"

namespace hfile::region {

Status SnapshotInfo::DecodeFrom(const Slice& contents) {
  pb::SnapshotInfoProto p;
  if (!p.ParseFromArray(contents.data(), static_cast<int>(contents.size())))
    return Status::Corruption(".snapshotinfo: malformed SnapshotDescription");
  name = p.name();
  table = p.table();
  creation_time = p.creation_time();
  type = p.type();
  version = p.version();
  owner = p.owner();
  ttl = p.ttl();
  return Status::OK();
}

namespace {

RegionInfo FromProto(const pb::RegionInfoProto& p) {
  RegionInfo ri;
  ri.table.namespace_name = p.table_name().namespace_();
  ri.table.qualifier = p.table_name().qualifier();
  ri.start_key = p.start_key();
  ri.end_key = p.end_key();
  ri.region_id = p.region_id();
  ri.offline = p.offline();
  ri.split = p.split();
  ri.replica_id = p.replica_id();
  ri.has_replica_field = p.has_replica_id();
  return ri;
}

// Candidate paths for a file named in a snapshot region manifest.
std::vector<std::string> Candidates(const SnapshotOptions& opt, const TableName& table,
                                    const std::string& region, const std::string& family,
                                    const StoreFileName& name) {
  std::vector<std::string> out;
  if (name.link) {
    out = HFileLinkCandidates(opt.root_dir, *name.link, family);
    return out;
  }
  // A reference names its parent region's file.
  std::string reg = region, file = name.name;
  if (name.kind == StoreFileKind::kReference) {
    reg = name.parent_region;
    file = name.referenced_name;
  }
  std::string tail = reg + "/" + family + "/" + file;
  std::string ns_table = table.namespace_name + "/" + table.qualifier;
  out.push_back(opt.root_dir + "/data/" + ns_table + "/" + tail);
  out.push_back(opt.root_dir + "/archive/data/" + ns_table + "/" + tail);
  for (const auto& d : opt.extra_data_dirs) {
    out.push_back(d + "/" + ns_table + "/" + tail);
    out.push_back(d + "/" + table.qualifier + "/" + tail);
  }
  return out;
}

}  // namespace

Result<Snapshot> Snapshot::Open(const std::string& snapshot_dir, const SnapshotOptions& options) {
  SnapshotOptions opt = options;
  if (opt.root_dir.empty()) opt.root_dir = snapshot_dir + "/../..";
  Snapshot s;
  HFILE_ASSIGN_OR_RETURN(std::string info, ReadWholeFile(JoinPath(snapshot_dir, ".snapshotinfo")));
  HFILE_RETURN_IF_ERROR(s.info_.DecodeFrom(info).WithContext(snapshot_dir));
  std::string manifest_path = JoinPath(snapshot_dir, "data.manifest");
  if (s.info_.version < 2 || !PathExists(manifest_path)) {
    return Status::NotSupported(snapshot_dir, "v1 snapshot (per-region directories, no "
                                              "data.manifest) is not supported");
  }
  HFILE_ASSIGN_OR_RETURN(std::string manifest, ReadWholeFile(manifest_path, 1u << 30));
  pb::SnapshotDataProto p;
  if (!p.ParseFromString(manifest))
    return Status::Corruption(manifest_path, "malformed SnapshotDataManifest");
  std::string schema;
  schema.append(kPbMagic);
  schema.append(p.table_schema().SerializeAsString());
  HFILE_RETURN_IF_ERROR(s.descriptor_.DecodeFrom(schema).WithContext(manifest_path));
  for (const auto& rm : p.region_manifests()) {
    SnapshotRegion region;
    region.info = FromProto(rm.region_info());
    std::string enc = region.info.EncodedName();
    for (const auto& ff : rm.family_files()) {
      SnapshotFamily fam;
      fam.name = ff.family_name();
      for (const auto& f : ff.store_files()) {
        SnapshotStoreFile sf;
        sf.name = StoreFileName::Classify(f.name());
        sf.size = f.file_size();
        if (f.has_reference()) {
          Reference r;
          r.split_key = f.reference().splitkey();
          r.range = f.reference().range() == pb::ReferenceProto::TOP ? Reference::Range::kTop
                                                                     : Reference::Range::kBottom;
          sf.reference = std::move(r);
        }
        sf.candidates = Candidates(opt, region.info.table, enc, fam.name, sf.name);
        for (const auto& c : sf.candidates) {
          if (PathExists(c)) {
            sf.path = c;
            break;
          }
        }
        fam.files.push_back(std::move(sf));
      }
      region.families.push_back(std::move(fam));
    }
    s.regions_.push_back(std::move(region));
  }
  return s;
}

size_t Snapshot::store_file_count() const {
  size_t n = 0;
  for (const auto& r : regions_)
    for (const auto& f : r.families) n += f.files.size();
  return n;
}

size_t Snapshot::unresolved_count() const {
  size_t n = 0;
  for (const auto& r : regions_)
    for (const auto& f : r.families)
      for (const auto& sf : f.files) n += sf.path.empty() ? 1 : 0;
  return n;
}

}  // namespace hfile::region
