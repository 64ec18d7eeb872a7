// HBase shell `alter` / `create` statements, parsed offline and applied to a TableDescriptor the
// way HBase 2.6's shell (hbase-shell/.../hbase/admin.rb: alter, create, hcd, update_htd_from_arg)
// and master (TableDescriptorChecker.sanityCheck) would.
//
// Grammar (the Ruby subset operators write; whitespace and newlines are free between tokens):
//
//   statement := [ "alter" | "create" ] [ "(" ] table { "," arg } [ ")" ] [ ";" ]
//   table     := string                                 e.g. 'docs', "ns:t"
//   arg       := string                                 a family name (create; alter: NAME)
//              | hash                                   {K => V, ...}
//              | pair { "," pair }                      braceless trailing hash (Ruby call syntax)
//              | "[" arg { "," arg } "]"                create flattens arrays
//   hash      := "{" [ pair { "," pair } [ "," ] ] "}"
//   pair      := key "=>" value
//   key       := CONSTANT | string                      CONSTANT = [A-Z][A-Z0-9_]* (NAME, TTL..)
//   value     := string | integer | "true" | "false" | "nil" | hash | "[" [ value {"," value} ] "]"
//   string    := '...' (only \' and \\ are escapes, as in Ruby)
//              | "..." (\" \\ \n \t \r \0 \e \s \xNN \NNN, as in Ruby)
//   integer   := [+-]? digits, '_' allowed between digits
//
// HBase shell constants evaluate to their own name ('NAME' => NAME), so a bare key and the quoted
// key are the same. Keys are case-sensitive, as in the shell (a Ruby Hash lookup): 'versions' is
// not VERSIONS; we reject it, naming the key HBase expects, where the shell would ignore it.
//
// Values are converted to the strings HBase stores (ColumnFamilyDescriptorBuilder and
// TableDescriptorBuilder setters): enum names upper-case (COMPRESSION 'zstd' → "ZSTD"), TTL in
// seconds as decimal (PrettyPrinter TIME_INTERVAL: 'FOREVER' → "2147483647", '1 DAY' → "86400",
// '86400 SECONDS (1 DAY)'), BLOCKSIZE / MAX_FILESIZE / MEMSTORE_FLUSHSIZE in bytes (PrettyPrinter
// BYTE: '64KB' → "65536", '65536 B (64KB)'), booleans "true"/"false", numbers decimal. Integers
// may also be quoted ('134217728'), as Java's valueOf(String) takes them. Unknown keys and bad
// values are InvalidArgument naming the key and the valid keys or values (the shell only prints
// "Unknown argument ignored").
#ifndef REGION_SHELL_STATEMENT_H_
#define REGION_SHELL_STATEMENT_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hfile/status.h"
#include "region/table_descriptor.h"
#include "region/table_name.h"

namespace hfile::region {

// One family's part of a statement: attributes in the form HBase stores them, in statement order.
struct FamilyChange {
  std::string name;
  bool drop = false;  // alter 't', 'delete' => 'f'  /  {NAME => 'f', METHOD => 'delete'}
  std::vector<std::pair<std::string, std::string>> values;         // family values map
  std::vector<std::pair<std::string, std::string>> configuration;  // CONFIGURATION => {...}
};

struct AlterStatement {
  TableName table;
  std::vector<FamilyChange> families;  // in statement order
  // MAX_FILESIZE, READONLY, ... METADATA and CONFIGURATION entries (HBase 2.x keeps a table's
  // CONFIGURATION in its values map).
  std::vector<std::pair<std::string, std::string>> table_values;
  std::vector<std::string> table_unset;  // METHOD => 'table_att_unset' / 'table_conf_unset'
};

// Parses `alter 'table', arg, ...`. The leading "alter" is optional.
Result<AlterStatement> ParseAlterStatement(std::string_view text);

// Applies `st` to `current` as the shell's alter + the master would: a named family that exists
// keeps every attribute the statement does not name; a new one starts from HBase's defaults
// (FamilyDescriptor::WithDefaults, as ColumnFamilyDescriptorBuilder.of stores them); dropped
// families go; table values are set, then unset keys removed (each must exist). The result is
// checked as TableDescriptorChecker does (most checks are skipped when the table sets
// hbase.table.sanity.checks=false; scope, bloom parameter and FIFO checks never are), a
// store-file tracker change must go through MIGRATION (2.5+), and TableDescriptor::Validate().
// InvalidArgument when `st.table` is not current's name, when a dropped family does not exist
// (HBase would silently do nothing), or a check fails. Families are applied first, in statement
// order, then table values, then unsets.
Result<TableDescriptor> ApplyAlter(const TableDescriptor& current, const AlterStatement& st);

struct CreateStatement {
  TableName table;
  std::vector<FamilyChange> families;  // in statement order; a repeated name replaces
  std::vector<std::pair<std::string, std::string>> table_values;
  // SPLITS, decoded as Bytes.toBytesBinary does ("\x00" escapes), in statement order
  // (SplitKeysForCreate sorts and checks them).
  std::vector<std::string> split_keys;
  std::optional<int> num_regions;  // NUMREGIONS (> 1), with split_algorithm
  std::string split_algorithm;     // SPLITALGO: 'HexStringSplit', 'UniformSplit', ...
  std::string splits_file;         // SPLITS_FILE (one key a line), read by SplitKeysForCreate
};

// Parses `create 'table', 'f1', {NAME => 'f2', ...}, {SPLITS => [...]}`. At least one family.
Result<CreateStatement> ParseCreateStatement(std::string_view text);

// The descriptor HBase 2.6 would store for `st`: IS_META=false, the table values, the 2.5+
// store-file tracker (hbase.store.file-tracker.impl=DEFAULT unless given), families with
// defaults + attributes, then the TableDescriptorChecker checks.
Result<TableDescriptor> DescriptorForCreate(const CreateStatement& st);

// The table's split keys, as Admin.createTable would receive them (sorted in byte order; empty
// and duplicate keys are InvalidArgument, as there): SPLITS; or SPLITS_FILE's lines (the shell's
// File.foreach + chomp, then Bytes.toBytesBinary); or NUMREGIONS with SPLITALGO HexStringSplit
// ("00000000".."ffffffff"), DecimalStringSplit ("00000000".."99999999") or UniformSplit (8-byte
// keys) as RegionSplitter computes them; other classes are NotSupported. Empty when none given.
Result<std::vector<std::string>> SplitKeysForCreate(const CreateStatement& st);

// The flag form of alter (--family F --set ATTR=VALUE ...). ATTR is any family attribute the
// statement form accepts, case-insensitive here; VALUE is read as a quoted shell string would be.
// CONFIGURATION entries are CONFIGURATION:key=value, METADATA entries METADATA:key=value.
Result<FamilyChange> FamilyChangeFromFlags(const std::string& family,
                                           const std::vector<std::string>& sets);

// The family attribute keys the statement form accepts, in the shell's (hcd) order.
const std::vector<std::string>& ShellFamilyAttributes();
// The table attribute keys (update_htd_from_arg), in the shell's order.
const std::vector<std::string>& ShellTableAttributes();

}  // namespace hfile::region

#endif  // REGION_SHELL_STATEMENT_H_
