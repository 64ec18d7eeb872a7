#include "region/store_file_name.h"

#include <cctype>
#include <charconv>

#include "hfile/coding.h"
#include "fs_util.h"
#include "hfile/cell.h"
#include "pb_util.h"
#include "region_format.pb.h"

namespace hfile::region {

std::string_view StoreFileKindName(StoreFileKind k) {
  switch (k) {
    case StoreFileKind::kHFile: return "hfile";
    case StoreFileKind::kReference: return "reference";
    case StoreFileKind::kLink: return "link";
    case StoreFileKind::kSkipped: return "skipped";
    case StoreFileKind::kInvalid: return "invalid";
  }
  return "invalid";
}

namespace {

bool IsLowerHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Parses "[0-9a-f]+(_SeqId_[0-9]+_|_del)?"; fills seq id / del flag.
bool ParseHFileName(std::string_view name, std::optional<uint64_t>* seq, bool* del) {
  size_t i = 0;
  while (i < name.size() && IsLowerHex(name[i])) ++i;
  if (i == 0) return false;
  std::string_view rest = name.substr(i);
  if (rest.empty()) return true;
  if (rest == "_del") {
    *del = true;
    return true;
  }
  constexpr std::string_view kSeq = "_SeqId_";
  if (rest.substr(0, kSeq.size()) != kSeq || rest.back() != '_') return false;
  std::string_view digits = rest.substr(kSeq.size(), rest.size() - kSeq.size() - 1);
  if (digits.empty()) return false;
  uint64_t v;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size()) return false;
  *seq = v;
  return true;
}

}  // namespace

bool IsValidHFileName(std::string_view name) {
  std::optional<uint64_t> seq;
  bool del = false;
  return ParseHFileName(name, &seq, &del);
}

std::string HFileLinkName::ToString() const {
  return table.ToLinkString() + "=" + region + "-" + hfile;
}

std::string HFileLinkName::RelativePath(const std::string& family) const {
  return "data/" + table.namespace_name + "/" + table.qualifier + "/" + region + "/" + family +
         "/" + hfile;
}

std::optional<HFileLinkName> ParseHFileLinkName(std::string_view name) {
  // [ns=]table=region-hfile; ns is word chars, table starts with a word char and may hold
  // '-', '.', '_'; region is lowercase hex; hfile matches the HFile name rule.
  // The region/hfile separator is the first '-' after the last '='.
  size_t last_eq = name.rfind('=');
  if (last_eq == std::string_view::npos) return std::nullopt;
  size_t dash = name.find('-', last_eq);
  if (dash == std::string_view::npos) return std::nullopt;
  std::string_view region = name.substr(last_eq + 1, dash - last_eq - 1);
  std::string_view hfile = name.substr(dash + 1);
  if (region.empty()) return std::nullopt;
  for (char c : region)
    if (!IsLowerHex(c)) return std::nullopt;
  if (!IsValidHFileName(hfile)) return std::nullopt;
  std::string_view head = name.substr(0, last_eq);
  HFileLinkName out;
  size_t first_eq = head.find('=');
  std::string_view ns, table = head;
  if (first_eq != std::string_view::npos) {
    ns = head.substr(0, first_eq);
    table = head.substr(first_eq + 1);
    if (ns.empty()) return std::nullopt;
    for (char c : ns)
      if (!IsWordChar(c)) return std::nullopt;
    out.table.namespace_name = std::string(ns);
  }
  if (table.empty() || !IsWordChar(table[0])) return std::nullopt;
  for (char c : table)
    if (!IsWordChar(c) && c != '-' && c != '.') return std::nullopt;
  out.table.qualifier = std::string(table);
  out.region = std::string(region);
  out.hfile = std::string(hfile);
  return out;
}

StoreFileName StoreFileName::Classify(std::string_view name, bool is_dir,
                                      std::optional<uint64_t> size) {
  StoreFileName out;
  out.name = std::string(name);
  if (is_dir) {
    out.kind = StoreFileKind::kSkipped;
    return out;
  }
  if (ParseHFileName(name, &out.bulk_load_seq_id, &out.mob_del_file)) {
    out.kind = StoreFileKind::kHFile;
  } else if (auto link = ParseHFileLinkName(name)) {
    out.kind = StoreFileKind::kLink;
    out.link = std::move(link);
    out.bulk_load_seq_id.reset();
    ParseHFileName(out.link->hfile, &out.bulk_load_seq_id, &out.mob_del_file);
    return out;  // links are empty files by design
  } else {
    // Reference: <hfile or link>.<parent region>; the referenced part ends at the last '.'.
    size_t dot = name.rfind('.');
    if (dot != std::string_view::npos && dot > 0 && dot + 1 < name.size()) {
      std::string_view ref = name.substr(0, dot);
      std::string_view parent = name.substr(dot + 1);
      std::optional<uint64_t> seq;
      bool del = false;
      auto link = ParseHFileLinkName(ref);
      if (ParseHFileName(ref, &seq, &del) || link) {
        out.kind = StoreFileKind::kReference;
        out.referenced_name = std::string(ref);
        out.parent_region = std::string(parent);
        out.link = std::move(link);
        if (out.link) ParseHFileName(out.link->hfile, &seq, &del);
        out.bulk_load_seq_id = seq;
      }
    }
    if (out.kind != StoreFileKind::kReference) {
      out.kind = name.find('-') != std::string_view::npos ? StoreFileKind::kSkipped
                                                          : StoreFileKind::kInvalid;
      return out;
    }
  }
  if (size && *size == 0) out.kind = StoreFileKind::kSkipped;  // empty non-link
  return out;
}

Reference Reference::ForRow(const Slice& row, Range range) {
  Reference r;
  AppendKey(&r.split_key, row, Slice(), Slice(), kLatestTimestamp,
            static_cast<uint8_t>(KeyType::kMaximum));
  r.range = range;
  return r;
}

Status Reference::DecodeFrom(const Slice& contents) {
  if (contents.starts_with(kPbMagic)) {
    pb::ReferenceProto p;
    if (!p.ParseFromArray(contents.data() + 4, static_cast<int>(contents.size() - 4)))
      return Status::Corruption("reference: malformed protobuf");
    split_key = p.splitkey();
    range = p.range() == pb::ReferenceProto::TOP ? Range::kTop : Range::kBottom;
    legacy_writable = false;
    return Status::OK();
  }
  Slice in = contents;
  uint8_t top;
  Slice key;
  if (!GetFixed8(&in, &top) || top > 1 || !GetByteArray(&in, &key))
    return Status::Corruption("reference: malformed legacy (Writable) form");
  split_key = key.ToString();
  range = top ? Range::kTop : Range::kBottom;
  legacy_writable = true;
  return Status::OK();
}

void Reference::EncodeTo(std::string* dst) const {
  pb::ReferenceProto p;
  p.set_splitkey(split_key);
  p.set_range(range == Range::kTop ? pb::ReferenceProto::TOP : pb::ReferenceProto::BOTTOM);
  dst->append(kPbMagic);
  dst->append(p.SerializeAsString());
}

std::string Reference::SplitRow() const {
  if (!IsValidKey(split_key)) return "";
  return KeyRow(split_key).ToString();
}

Result<Reference> ReadReferenceFile(const std::string& path) {
  HFILE_ASSIGN_OR_RETURN(std::string data, ReadWholeFile(path, 1 << 20));
  Reference r;
  HFILE_RETURN_IF_ERROR(r.DecodeFrom(data).WithContext(path));
  return r;
}

std::vector<std::string> HFileLinkCandidates(const std::string& root_dir,
                                             const HFileLinkName& link,
                                             const std::string& family) {
  std::string rel = link.RelativePath(family);
  return {JoinPath(root_dir, rel), JoinPath(root_dir, "archive/" + rel),
          JoinPath(root_dir, ".tmp/" + rel), JoinPath(root_dir, "mobdir/" + rel)};
}

Result<std::string> ResolveHFileLink(const std::string& root_dir, const HFileLinkName& link,
                                     const std::string& family) {
  auto candidates = HFileLinkCandidates(root_dir, link, family);
  for (const auto& c : candidates)
    if (PathExists(c)) return c;
  return Status::NotFound("HFileLink target of " + link.ToString() + " not found",
                          "tried " + candidates[0] + " and archive/.tmp/mobdir");
}

}  // namespace hfile::region
