#include "java_order.h"

#include <algorithm>
#include <numeric>

namespace hfile::region {

int32_t JavaHashCode(std::string_view key, JavaKey kind) {
  uint32_t h = kind == JavaKey::kBytes ? 1 : 0;  // unsigned: Java's int overflow wraps
  for (char c : key) {
    const int32_t v = kind == JavaKey::kBytes ? static_cast<int8_t>(c)
                                              : static_cast<int32_t>(static_cast<unsigned char>(c));
    h = 31 * h + static_cast<uint32_t>(v);
  }
  return static_cast<int32_t>(h);
}

std::vector<size_t> JavaHashMapOrder(const std::vector<std::string>& keys, JavaKey kind) {
  // HashMap.putMapEntries on an empty map: threshold = tableSizeFor((int)(size / 0.75f + 1)),
  // which the first put turns into the table's capacity; no resize follows.
  const float ft = static_cast<float>(keys.size()) / 0.75f + 1.0f;
  const auto wanted = static_cast<uint32_t>(ft);
  uint32_t capacity = 1;
  while (capacity < wanted) capacity <<= 1;
  return JavaBucketOrder(keys, kind, capacity);
}

std::vector<size_t> JavaBucketOrder(const std::vector<std::string>& keys, JavaKey kind,
                                    uint32_t capacity) {
  std::vector<uint32_t> bucket(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto h = static_cast<uint32_t>(JavaHashCode(keys[i], kind));
    bucket[i] = (h ^ (h >> 16)) & (capacity - 1);
  }
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return bucket[a] < bucket[b]; });
  return order;
}

}  // namespace hfile::region
