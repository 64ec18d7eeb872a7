// An exact min/max/sum/count plus power-of-two buckets: cheap enough for every cell of a scan.
#ifndef HFILE_SRC_HISTOGRAM_H_
#define HFILE_SRC_HISTOGRAM_H_

#include <array>
#include <cstdint>
#include <string>

namespace hfile {

class Histogram {
 public:
  void Add(uint64_t v) {
    if (count_ == 0 || v < min_) min_ = v;
    if (v > max_) max_ = v;
    ++count_;
    sum_ += v;
    ++buckets_[Bucket(v)];
  }
  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  uint64_t sum() const { return sum_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  // Upper bound of the bucket holding the p-th percentile (p in 0..100).
  uint64_t PercentileUpperBound(double p) const;
  // Bucket b holds values in [BucketLow(b), BucketHigh(b)].
  static int Bucket(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }
  static uint64_t BucketLow(int b) { return b == 0 ? 0 : uint64_t{1} << (b - 1); }
  static uint64_t BucketHigh(int b) { return b == 0 ? 0 : b >= 64 ? UINT64_MAX : (uint64_t{1} << b) - 1; }
  uint64_t bucket_count(int b) const { return buckets_[b]; }
  static constexpr int kNumBuckets = 65;

 private:
  uint64_t count_ = 0, min_ = 0, max_ = 0, sum_ = 0;
  std::array<uint64_t, kNumBuckets> buckets_{};
};

inline uint64_t Histogram::PercentileUpperBound(double p) const {
  if (count_ == 0) return 0;
  uint64_t want = static_cast<uint64_t>(p / 100.0 * static_cast<double>(count_) + 0.5);
  if (want == 0) want = 1;
  uint64_t seen = 0;
  for (int b = 0; b < kNumBuckets; ++b) {
    seen += buckets_[b];
    if (seen >= want) return BucketHigh(b) < max_ ? BucketHigh(b) : max_;
  }
  return max_;
}

}  // namespace hfile

#endif  // HFILE_SRC_HISTOGRAM_H_
