#include "region/compaction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "region/merging_iterator.h"
#include "region/vector_iterator.h"

namespace hfile::region {
namespace {

using KT = KeyType;

CellData P(const char* row, const char* q, int64_t ts, const char* v = "", uint64_t seq = 0) {
  return CellData::Make(row, "f", q, ts, KT::kPut, v, seq);
}
CellData D(const char* row, const char* q, int64_t ts, KT type, uint64_t seq = 0) {
  return CellData::Make(row, "f", q, ts, type, "", seq);
}

std::string Describe(const Cell& c) {
  std::string s = c.row().ToString() + "/" + c.qualifier().ToString() + "@" +
                  std::to_string(c.timestamp());
  if (c.type() != 4) s += ":" + KeyTypeName(c.type());
  if (!c.value.empty()) s += "=" + c.value.ToString();
  return s;
}

std::vector<std::string> Compact(std::vector<CellData> cells, const CompactionOptions& o,
                                 CompactionStats* stats = nullptr) {
  std::stable_sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
    return CompareForMerge(ComparatorKind::kDefault, a.view(), 0, b.view(), 0) < 0;
  });
  auto it = NewCompactionIterator(NewVectorCellIterator(std::move(cells)), o, stats);
  std::vector<std::string> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) out.push_back(Describe(it->cell()));
  EXPECT_TRUE(it->status().ok());
  return out;
}

using V = std::vector<std::string>;

CompactionOptions Major(int versions = 1) {
  CompactionOptions o;
  o.max_versions = versions;
  o.now_ms = 1000;
  return o;
}

TEST(Compaction, Versions) {
  CompactionStats st;
  EXPECT_EQ(Compact({P("r", "q", 3), P("r", "q", 2), P("r", "q", 1), P("r", "p", 1)}, Major(2),
                    &st),
            (V{"r/p@1", "r/q@3", "r/q@2"}));
  EXPECT_EQ(st.dropped_versions, 1u);
  EXPECT_EQ(st.input_cells, 4u);
  EXPECT_EQ(st.output_cells, 3u);
}

TEST(Compaction, ExactDuplicateKeepsNewestSequence) {
  CompactionStats st;
  EXPECT_EQ(Compact({P("r", "q", 5, "old", 1), P("r", "q", 5, "new", 9)}, Major(3), &st),
            (V{"r/q@5=new"}));
  EXPECT_EQ(st.dropped_versions, 1u);
}

TEST(Compaction, MajorDeleteColumn) {
  CompactionStats st;
  EXPECT_EQ(Compact({P("r", "q", 6), D("r", "q", 5, KT::kDeleteColumn), P("r", "q", 5),
                     P("r", "q", 4), P("r", "z", 1)},
                    Major(3), &st),
            (V{"r/q@6", "r/z@1"}));
  EXPECT_EQ(st.dropped_delete_markers, 1u);
  EXPECT_EQ(st.dropped_deleted, 2u);
}

TEST(Compaction, DeleteVersionResurfacesOlderVersion) {
  // HBASE-21596: a deleted put does not use a version slot.
  EXPECT_EQ(Compact({P("r", "q", 5), P("r", "q", 4), D("r", "q", 5, KT::kDelete)}, Major(1)),
            (V{"r/q@4"}));
  // A Delete newer than every put masks nothing and is forgotten at the first older put.
  EXPECT_EQ(Compact({D("r", "q", 9, KT::kDelete), P("r", "q", 5)}, Major(1)), (V{"r/q@5"}));
}

TEST(Compaction, LessSpecificMarkerIgnored) {
  EXPECT_EQ(Compact({D("r", "q", 5, KT::kDeleteColumn), D("r", "q", 5, KT::kDelete),
                     P("r", "q", 3)},
                    Major(3)),
            V{});
}

TEST(Compaction, DeleteFamily) {
  CompactionStats st;
  EXPECT_EQ(Compact({D("r", "", 5, KT::kDeleteFamily), P("r", "a", 6), P("r", "a", 5),
                     P("r", "b", 2), P("s", "a", 1)},
                    Major(3), &st),
            (V{"r/a@6", "s/a@1"}));
  EXPECT_EQ(st.dropped_delete_markers, 1u);
  EXPECT_EQ(st.dropped_deleted, 2u);
}

TEST(Compaction, DeleteFamilyVersion) {
  EXPECT_EQ(Compact({D("r", "", 5, KT::kDeleteFamilyVersion), P("r", "a", 6), P("r", "a", 5),
                     P("r", "a", 4), P("r", "b", 5), P("r", "b", 3)},
                    Major(3)),
            (V{"r/a@6", "r/a@4", "r/b@3"}));
}

TEST(Compaction, EmptyQualifierRule) {
  // §6.5: the empty column's excess versions are skipped one by one, so the DeleteFamily that
  // follows is still tracked and masks q1@3.
  CompactionStats st;
  EXPECT_EQ(Compact({P("r", "", 10), P("r", "", 9), D("r", "", 5, KT::kDeleteFamily),
                     P("r", "q1", 3)},
                    Major(1), &st),
            (V{"r/@10"}));
  EXPECT_EQ(st.dropped_versions, 1u);
  EXPECT_EQ(st.dropped_delete_markers, 1u);
  EXPECT_EQ(st.dropped_deleted, 1u);
  // Non-empty qualifier: the rest of the column is skipped wholesale.
  EXPECT_EQ(Compact({P("r", "a", 10), P("r", "a", 9), D("r", "a", 8, KT::kDelete),
                     P("r", "a", 8)},
                    Major(1), &st),
            (V{"r/a@10"}));
}

TEST(Compaction, MinorKeepsMarkersButDropsMaskedPuts) {
  CompactionOptions o = Major(1);
  o.kind = CompactionKind::kMinor;
  CompactionStats st;
  EXPECT_EQ(Compact({D("r", "", 5, KT::kDeleteFamily), P("r", "a", 6), P("r", "a", 4),
                     D("r", "b", 7, KT::kDeleteColumn), P("r", "b", 7), P("r", "c", 7),
                     P("r", "c", 6)},
                    o, &st),
            (V{"r/@5:DeleteFamily", "r/a@6", "r/b@7:DeleteColumn", "r/c@7"}));
  EXPECT_EQ(st.dropped_delete_markers, 0u);
  EXPECT_EQ(st.dropped_deleted, 2u);
  EXPECT_EQ(st.dropped_versions, 1u);
}

TEST(Compaction, FamilyTtl) {
  CompactionOptions o = Major(3);
  o.ttl_ms = 100;  // oldest unexpired = 900
  CompactionStats st;
  EXPECT_EQ(Compact({P("r", "q", 950), P("r", "q", 900), P("r", "q", 899), P("r", "q", 1),
                     D("r", "z", 10, KT::kDeleteColumn)},
                    o, &st),
            (V{"r/q@950", "r/q@900"}));
  EXPECT_EQ(st.dropped_ttl, 3u);
}

TEST(Compaction, MinVersionsWithTtl) {
  CompactionOptions o = Major(3);
  o.ttl_ms = 100;
  o.min_versions = 1;
  EXPECT_EQ(Compact({P("r", "q", 800), P("r", "q", 700), P("r", "p", 950), P("r", "p", 800)}, o),
            (V{"r/p@950", "r/q@800"}));
  o.min_versions = 2;
  EXPECT_EQ(Compact({P("r", "q", 800), P("r", "q", 700), P("r", "q", 600)}, o),
            (V{"r/q@800", "r/q@700"}));
}

TEST(Compaction, CellTtlTag) {
  CompactionOptions o = Major(3);
  CellData expired = CellData::Make("r", "f", "a", 900, KT::kPut, "", 0, TtlTag(50));
  CellData alive = CellData::Make("r", "f", "b", 900, KT::kPut, "", 0, TtlTag(200));
  CompactionStats st;
  EXPECT_EQ(Compact({expired, alive, P("r", "a", 800)}, o, &st), (V{"r/a@800", "r/b@900"}));
  EXPECT_EQ(st.dropped_cell_ttl, 1u);
  // The family TTL still applies to a cell with a longer TTL tag.
  o.ttl_ms = 50;
  CellData longer = CellData::Make("r", "f", "c", 900, KT::kPut, "", 0, TtlTag(1000000));
  EXPECT_EQ(Compact({longer}, o), V{});
}

TEST(Compaction, KeepDeletedCellsTrue) {
  CompactionOptions o = Major(3);
  o.keep_deleted_cells = KeepDeletedCells::kTrue;
  o.earliest_put_ts = 0;
  EXPECT_EQ(Compact({D("r", "q", 5, KT::kDelete), P("r", "q", 5), P("r", "q", 4),
                     D("r", "", 3, KT::kDeleteFamily), P("r", "z", 1)},
                    o),
            (V{"r/@3:DeleteFamily", "r/q@5:Delete", "r/q@5", "r/q@4", "r/z@1"}));
  // Markers older than every put are purged (and their column skipped).
  o.earliest_put_ts = 4;
  EXPECT_EQ(Compact({D("r", "q", 5, KT::kDelete), P("r", "q", 5), D("r", "", 3, KT::kDeleteFamily),
                     P("r", "z", 1)},
                    o),
            (V{"r/q@5:Delete", "r/q@5", "r/z@1"}));
}

TEST(Compaction, KeepDeletedCellsTtl) {
  CompactionOptions o = Major(3);
  o.keep_deleted_cells = KeepDeletedCells::kTtl;
  o.ttl_ms = 100;  // oldest 900
  o.min_versions = 1;
  o.earliest_put_ts = 0;
  // Inside the TTL: the marker is kept and not applied; outside: applied and purged.
  EXPECT_EQ(Compact({D("a", "q", 950, KT::kDeleteColumn), P("a", "q", 940),
                     D("b", "q", 800, KT::kDeleteColumn), P("b", "q", 790)},
                    o),
            (V{"a/q@950:DeleteColumn", "a/q@940"}));
}

TEST(Compaction, TimeToPurgeDeletes) {
  CompactionOptions o = Major(3);
  o.time_to_purge_deletes_ms = 100;
  EXPECT_EQ(Compact({D("r", "q", 950, KT::kDeleteColumn), P("r", "q", 940),
                     D("r", "z", 10, KT::kDeleteColumn), P("r", "z", 5)},
                    o),
            (V{"r/q@950:DeleteColumn"}));
}

TEST(Compaction, MarkersOfKeptVersionsDoNotCountAsVersions) {
  // KDC TRUE: markers reach the version check but never use a slot.
  CompactionOptions o = Major(1);
  o.keep_deleted_cells = KeepDeletedCells::kTrue;
  o.earliest_put_ts = 0;
  EXPECT_EQ(Compact({D("r", "q", 9, KT::kDelete), D("r", "q", 8, KT::kDelete), P("r", "q", 7),
                     P("r", "q", 6)},
                    o),
            (V{"r/q@9:Delete", "r/q@8:Delete", "r/q@7"}));
}

TEST(Compaction, SequenceIdZeroing) {
  CompactionOptions o = Major(3);
  o.zero_sequence_ids_up_to = 5;
  auto it = NewCompactionIterator(
      NewVectorCellIterator({P("r", "a", 1, "", 3), P("r", "b", 1, "", 7)}), o, nullptr);
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->cell().sequence_id, 0u);
  it->Next();
  EXPECT_EQ(it->cell().sequence_id, 7u);
  int64_t now = 100LL * 86400 * 1000;
  EXPECT_EQ(SequenceIdZeroingThreshold({{10, now - 6LL * 86400000}, {20, now}}, true, now),
            std::optional<uint64_t>(10));
  EXPECT_FALSE(SequenceIdZeroingThreshold({{10, 0}}, false, now));
  EXPECT_FALSE(SequenceIdZeroingThreshold({{10, now}}, true, now));
}

TEST(Compaction, OptionsFromFamily) {
  FamilyDescriptor f = FamilyDescriptor::WithDefaults("cf");
  f.SetValue("TTL", "60");
  f.SetValue("VERSIONS", "4");
  f.SetValue("KEEP_DELETED_CELLS", "TRUE");
  auto o = CompactionOptions::ForFamily(f, CompactionKind::kMajor, 100000);
  EXPECT_EQ(o.ttl_ms, 60000);
  EXPECT_EQ(o.max_versions, 4);
  EXPECT_EQ(o.keep_deleted_cells, KeepDeletedCells::kTrue);
  EXPECT_EQ(o.oldest_unexpired_ts(), 40000);
  auto forever = CompactionOptions::ForFamily(FamilyDescriptor("x"), CompactionKind::kMajor, 5);
  EXPECT_LT(forever.oldest_unexpired_ts(), 0);  // wraps: nothing expires
}

TEST(Compaction, MergedInputsEndToEnd) {
  // Two "files": the newer holds a DeleteFamily that masks the older file's row.
  std::vector<std::unique_ptr<CellIterator>> in;
  in.push_back(NewVectorCellIterator({P("a", "q", 1, "a1", 1), P("b", "q", 1, "b1", 2)}));
  in.push_back(NewVectorCellIterator({D("a", "", 2, KT::kDeleteFamily, 3), P("c", "q", 3, "c", 4)}));
  CompactionStats st;
  auto it = NewCompactionIterator(NewMergingIterator(std::move(in)), Major(1), &st);
  V out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) out.push_back(Describe(it->cell()));
  EXPECT_EQ(out, (V{"b/q@1=b1", "c/q@3=c"}));
  EXPECT_EQ(st.dropped(), 2u);
}

// Passes its input on but hides the input's first differences: the compaction rules compare
// the rows and columns themselves.
class HideDifferences : public CellIterator {
 public:
  explicit HideDifferences(std::unique_ptr<CellIterator> in) : in_(std::move(in)) {}
  bool Valid() const override { return in_->Valid(); }
  void SeekToFirst() override { in_->SeekToFirst(); }
  void Seek(const Slice& k) override { in_->Seek(k); }
  void Next() override { in_->Next(); }
  const Cell& cell() const override { return in_->cell(); }
  Status status() const override { return in_->status(); }

 private:
  std::unique_ptr<CellIterator> in_;
};

}  // namespace
}  // namespace hfile::region

#include <random>

#include "hfile/reader.h"
#include "hfile/writer.h"
#include "../testutil.h"

namespace hfile::region {
namespace {

// The merge's first differences (files read a data block at a time) decide the compaction's
// row and column changes: the same cells and counts as when it compares, under every rule, and
// the differences it hands on are the compares of its own output.
TEST(Compaction, KeyDifferencesDecideAsComparesDo) {
  const std::string dir = test::NewTempDir("compaction-differences");
  std::mt19937 rng(18);
  auto rnd = [&rng](uint32_t m) { return static_cast<uint32_t>(rng() % m); };
  static const KT kTypes[] = {KT::kPut, KT::kPut, KT::kPut, KT::kDelete, KT::kDeleteColumn,
                              KT::kDeleteFamily, KT::kDeleteFamilyVersion};
  std::vector<std::string> paths;
  for (int f = 0; f < 4; ++f) {
    std::vector<CellData> cells;
    for (int i = 0; i < 1500; ++i) {
      const std::string row = "r" + std::to_string(rnd(60));
      const KT t = kTypes[rnd(7)];
      const std::string q = t == KT::kDeleteFamily || t == KT::kDeleteFamilyVersion || rnd(6) == 0
                                ? ""
                                : "q" + std::to_string(rnd(4));
      std::string tags;
      if (rnd(20) == 0) tags = TtlTag(rnd(2000));
      cells.push_back(CellData::Make(row, "f", q, rnd(1500), t, "v", 1 + rnd(50), tags));
    }
    std::sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
      return CompareForMerge(ComparatorKind::kDefault, a.view(), 0, b.view(), 0) < 0;
    });
    WriterOptions o;
    o.block_size = 512;
    o.include_tags = true;
    o.include_mvcc = true;
    paths.push_back(dir + "/" + std::to_string(f) + ".hfile");
    auto w = Writer::Create(paths.back(), o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    for (const auto& c : cells) ASSERT_TRUE((*w)->Append(c.view()).ok());
    ASSERT_TRUE((*w)->Finish().ok());
  }
  std::vector<CompactionOptions> rules;
  for (int versions : {1, 3}) {
    for (CompactionKind kind : {CompactionKind::kMajor, CompactionKind::kMinor}) {
      for (KeepDeletedCells kdc : {KeepDeletedCells::kFalse, KeepDeletedCells::kTrue,
                                   KeepDeletedCells::kTtl}) {
        CompactionOptions o;
        o.kind = kind;
        o.max_versions = versions;
        o.min_versions = versions == 3 ? 1 : 0;
        o.ttl_ms = 1000;
        o.now_ms = 1800;
        o.keep_deleted_cells = kdc;
        rules.push_back(o);
      }
    }
  }
  size_t known = 0, kept = 0;
  for (const CompactionOptions& o : rules) {
    std::vector<std::unique_ptr<Reader>> readers;
    auto merge = [&readers, &paths]() {
      std::vector<std::unique_ptr<CellIterator>> its;
      for (const auto& p : paths) {
        auto r = Reader::Open(p);
        EXPECT_TRUE(r.ok());
        its.push_back((*r)->NewIterator());
        readers.push_back(std::move(*r));
      }
      return NewMergingIterator(std::move(its));
    };
    CompactionStats by_field, by_compare;
    auto a = NewCompactionIterator(merge(), o, &by_field);
    auto b = NewCompactionIterator(std::make_unique<HideDifferences>(merge()), o, &by_compare);
    std::string prev;
    for (a->SeekToFirst(), b->SeekToFirst(); a->Valid(); a->Next(), b->Next(), ++kept) {
      ASSERT_TRUE(b->Valid());
      ASSERT_EQ(a->cell().key, b->cell().key);
      ASSERT_EQ(a->cell().sequence_id, b->cell().sequence_id);
      KeyField d, want;
      if (a->KeyDifference(&d)) {
        ASSERT_FALSE(prev.empty());
        ASSERT_LE(CompareKeys(ComparatorKind::kDefault, prev, a->cell().key, &want), 0);
        ASSERT_EQ(static_cast<int>(d), static_cast<int>(want));
        ++known;
      }
      EXPECT_FALSE(b->KeyDifference(&d));
      prev = a->cell().key.ToString();
    }
    EXPECT_FALSE(b->Valid());
    ASSERT_TRUE(a->status().ok() && b->status().ok());
    EXPECT_EQ(by_field.output_cells, by_compare.output_cells);
    EXPECT_EQ(by_field.dropped_versions, by_compare.dropped_versions);
    EXPECT_EQ(by_field.dropped_ttl, by_compare.dropped_ttl);
    EXPECT_EQ(by_field.dropped_cell_ttl, by_compare.dropped_cell_ttl);
    EXPECT_EQ(by_field.dropped_deleted, by_compare.dropped_deleted);
    EXPECT_EQ(by_field.dropped_delete_markers, by_compare.dropped_delete_markers);
  }
  EXPECT_GT(known, kept / 2) << known << " of " << kept;
}

}  // namespace
}  // namespace hfile::region

#include "hfile/reader.h"
#include "region/snapshot.h"
#include "region/store_file_sequence.h"
#include "../testutil.h"

namespace hfile::region {
namespace {

// Major-compacts every region of riverbed's test_snapshot_v1 (two real HBase 2.x files per
// region, with Delete and DeleteFamily cells) and checks the surviving rows against the
// generator's intent.
TEST(CompactionReal, RiverbedSnapshotV1) {
  HFILE_REQUIRE_REAL_DATA();
  std::string dir = test::RealDataDir() + "/riverbed/snapshot/testdata/test_snapshot_v1";
  SnapshotOptions so;
  so.extra_data_dirs = {dir + "/data"};
  auto snap = Snapshot::Open(dir, so);
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  const FamilyDescriptor* cf = snap->descriptor().FindFamily("cf");
  ASSERT_NE(cf, nullptr);
  std::vector<std::string> kept;
  for (const auto& region : snap->regions()) {
    std::vector<std::pair<int64_t, std::unique_ptr<Reader>>> files;
    for (const auto& f : region.families[0].files) {
      auto r = Reader::Open(f.path);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      int64_t seq = ComputeStoreFileSequence(f.name, false, (*r)->file_info()).sequence_id;
      files.emplace_back(seq, std::move(r).value());
    }
    std::sort(files.begin(), files.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::unique_ptr<CellIterator>> inputs;
    for (const auto& [seq, reader] : files) inputs.push_back(reader->NewIterator());
    auto it = NewCompactionIterator(NewMergingIterator(std::move(inputs)),
                                    CompactionOptions::ForFamily(*cf, CompactionKind::kMajor,
                                                                 4102444800000),
                                    nullptr);
    for (it->SeekToFirst(); it->Valid(); it->Next())
      kept.push_back(it->cell().row().ToString() + "=" + it->cell().value.ToString());
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  }
  std::sort(kept.begin(), kept.end());
  for (const auto& k : kept) {
    EXPECT_EQ(k.find("cherry"), std::string::npos) << k;
    EXPECT_EQ(k.find("orange"), std::string::npos) << k;
    EXPECT_EQ(k.find("tomato"), std::string::npos) << k;
  }
  EXPECT_NE(std::find(kept.begin(), kept.end(), "apple=value_apple_v2"), kept.end());
  EXPECT_NE(std::find(kept.begin(), kept.end(), "date=value_date_v1"), kept.end());
  EXPECT_NE(std::find(kept.begin(), kept.end(), "mango=value_mango_v2"), kept.end());
  EXPECT_NE(std::find(kept.begin(), kept.end(), "strawberry=value_strawberry_v1"), kept.end());
  EXPECT_EQ(std::find(kept.begin(), kept.end(), "apple=value_apple_v1"), kept.end());
  std::string all;
  for (const auto& k : kept) all += k + " ";
  RecordProperty("kept", all);
  std::cout << "kept: " << all << "\n";
}

}  // namespace
}  // namespace hfile::region
