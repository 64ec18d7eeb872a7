// The stable names of the layout problems that describe and verify report about a table,
// region or snapshot (the JSON `code`; hfile-verify(1) lists them with their meanings). The
// problems about the bytes of one HFile have their own codes (hfile/verify.h ProblemCode).
#ifndef REGION_LAYOUT_CODES_H_
#define REGION_LAYOUT_CODES_H_

namespace hfile::region::layout_code {

// Store files and family dirs.
inline constexpr char kCellWrongFamily[] = "cell-wrong-family";
inline constexpr char kCellOutsideRegion[] = "cell-outside-region";
inline constexpr char kFamilyNotInDescriptor[] = "family-not-in-descriptor";
inline constexpr char kFamilyDirMissing[] = "family-dir-missing";
inline constexpr char kNotAStoreFile[] = "not-a-store-file";
inline constexpr char kInvalidStoreFileName[] = "invalid-store-file-name";
inline constexpr char kStoreFileSkipped[] = "store-file-skipped";
inline constexpr char kChecksumSideFile[] = "checksum-side-file";
inline constexpr char kNotInFileList[] = "not-in-filelist";
inline constexpr char kCompactedAwayLeftover[] = "compacted-away-leftover";
inline constexpr char kStoreFileUnresolved[] = "store-file-unresolved";
inline constexpr char kStoreFileUnreadable[] = "store-file-unreadable";
inline constexpr char kHFileVersionTooOld[] = "hfile-version-too-old";
inline constexpr char kBulkLoadSequenceIdMismatch[] = "bulkload-sequence-id-mismatch";
inline constexpr char kBulkLoadWithoutSequenceId[] = "bulkload-without-sequence-id";
inline constexpr char kMaxSequenceIdMissing[] = "max-sequence-id-missing";
inline constexpr char kMemstoreTsExceedsSequenceId[] = "memstore-ts-exceeds-sequence-id";
inline constexpr char kSharedSequenceId[] = "shared-sequence-id";
// Regions and the table.
inline constexpr char kLayoutNote[] = "layout-note";
inline constexpr char kDescriptorUnreadable[] = "descriptor-unreadable";
inline constexpr char kRegionDirNameMismatch[] = "region-dir-name-mismatch";
inline constexpr char kRegionInfoTableMismatch[] = "regioninfo-table-mismatch";
inline constexpr char kRegionInfoUnreadable[] = "regioninfo-unreadable";
inline constexpr char kRecoveredEditsPending[] = "recovered-edits-pending";
inline constexpr char kTmpDirPresent[] = "tmp-dir-present";
inline constexpr char kUnusedEntry[] = "unused-entry";
inline constexpr char kNoLiveRegion[] = "no-live-region";
inline constexpr char kRegionHole[] = "region-hole";
inline constexpr char kRegionOverlap[] = "region-overlap";
inline constexpr char kSplitParentUncovered[] = "split-parent-uncovered";
// hbase:meta against the region dirs (the JSON `finding` is the same name in snake_case).
inline constexpr char kMetaUnreadable[] = "meta-unreadable";
inline constexpr char kMetaWalEdits[] = "meta-wal-edits";
inline constexpr char kMetaBadRow[] = "meta-bad-row";
inline constexpr char kMetaRowName[] = "meta-row-name";
inline constexpr char kMetaParentWithoutDir[] = "meta-parent-without-dir";
inline constexpr char kMetaRegionWithoutDir[] = "meta-region-without-dir";
inline constexpr char kMetaRegionInfoDiffers[] = "meta-regioninfo-differs";
inline constexpr char kDirMergeParent[] = "dir-merge-parent";
inline constexpr char kDirParentNotInMeta[] = "dir-parent-not-in-meta";
inline constexpr char kDirNotInMeta[] = "dir-not-in-meta";
inline constexpr char kMetaHole[] = "meta-hole";
inline constexpr char kMetaOverlap[] = "meta-overlap";

// Every code above (for the test that each is documented).
inline constexpr const char* kAll[] = {
    kCellWrongFamily, kCellOutsideRegion, kFamilyNotInDescriptor, kFamilyDirMissing,
    kNotAStoreFile, kInvalidStoreFileName, kStoreFileSkipped, kChecksumSideFile, kNotInFileList,
    kCompactedAwayLeftover, kStoreFileUnresolved, kStoreFileUnreadable, kHFileVersionTooOld,
    kBulkLoadSequenceIdMismatch, kBulkLoadWithoutSequenceId, kMaxSequenceIdMissing,
    kMemstoreTsExceedsSequenceId, kSharedSequenceId, kLayoutNote, kDescriptorUnreadable,
    kRegionDirNameMismatch, kRegionInfoTableMismatch, kRegionInfoUnreadable,
    kRecoveredEditsPending, kTmpDirPresent, kUnusedEntry, kNoLiveRegion, kRegionHole,
    kRegionOverlap, kSplitParentUncovered, kMetaUnreadable, kMetaWalEdits, kMetaBadRow,
    kMetaRowName, kMetaParentWithoutDir, kMetaRegionWithoutDir, kMetaRegionInfoDiffers,
    kDirMergeParent, kDirParentNotInMeta, kDirNotInMeta, kMetaHole, kMetaOverlap};

}  // namespace hfile::region::layout_code

#endif  // REGION_LAYOUT_CODES_H_
