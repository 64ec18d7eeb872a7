// The iteration order of Java's HashMap, which decides the order in which HBase's shell prints a
// family's attributes (ColumnFamilyDescriptorBuilder keeps them in a HashMap, and the shell's
// describe prints a copy of it).
#ifndef REGION_SRC_JAVA_ORDER_H_
#define REGION_SRC_JAVA_ORDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hfile::region {

// Bytes.hashCode (seed 1, signed bytes) for kBytes; String.hashCode (seed 0) for kString, with
// each byte taken as one char (exact for ASCII keys, which is what HBase's keys are).
enum class JavaKey : uint8_t { kBytes, kString };
int32_t JavaHashCode(std::string_view key, JavaKey kind);

// The order in which a java.util.HashMap filled by putAll() of `keys` (in that order) into an
// empty map iterates them: by bucket, (h ^ h >>> 16) & (capacity - 1) with the capacity putAll
// sizes (the power of two >= size / 0.75 + 1), entries of one bucket in insertion order.
// Returns indexes into `keys`.
std::vector<size_t> JavaHashMapOrder(const std::vector<std::string>& keys, JavaKey kind);

// The iteration order of a java.util.HashMap (or HashSet) of `keys` (distinct, in insertion
// order) whose table has `capacity` buckets (a power of two): by bucket, insertion order within
// one (a resize splits buckets stably, so the order only depends on the final capacity).
std::vector<size_t> JavaBucketOrder(const std::vector<std::string>& keys, JavaKey kind,
                                    uint32_t capacity);

}  // namespace hfile::region

#endif  // REGION_SRC_JAVA_ORDER_H_
