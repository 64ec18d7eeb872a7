// The benchmark cell generator (bench_data.h). Shapes, chosen to look like real HBase tables:
//
//   row keys    a third each: sequential ("s" + 12 digits), hashed/salted ("h" + 16 hex + ":" +
//               id) and composite ("c" + tenant + "#" + reversed timestamp + "#" + id)
//   columns     1-10 qualifiers per row, family "f"
//   versions    80% one, 15% two, 5% three (timestamps descending)
//   deletes     2% of rows start with a DeleteFamily, 3% of columns with a DeleteColumn
//   values      10 B - 100 KB, log-uniform within bands: 60% 10-100 B, 30% 100 B-1 KB,
//               8% 1-16 KB, 1.8% 16-64 KB, 0.2% 64-100 KB; three in four are text (words from
//               a fixed vocabulary, compresses about 3x), one in four random bytes
#include "bench_data.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "hfile/coding.h"

namespace hfile::bench {
namespace {

constexpr char kCellsMagic[] = "HFKCELL1";
constexpr char kGetsMagic[] = "HFKGETS1";

uint64_t Mix64(uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t Next() { return Mix64(s_++); }
  uint64_t Uniform(uint64_t n) { return Next() % n; }
  double Unit() { return (Next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  uint64_t s_;
};

uint64_t HashBytes(const std::string& s, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : s) h = Mix64(h ^ c);
  return h;
}

const char* const kWords[] = {
    "user",    "order",   "status", "active", "pending", "shipped", "region", "europe",
    "america", "asia",    "price",  "amount", "currency", "EUR",    "USD",     "item",
    "sku",     "quantity", "click", "session", "device",  "android", "ios",    "web",
    "true",    "false",   "null",   "event",  "timestamp", "2026-11-29", "id", "name",
    "email",   "example.com", "address", "street", "city", "zip", "country", "metric",
    "cpu",     "memory",  "disk",   "latency", "p99",    "count",   "sum",    "host"};
constexpr size_t kNumWords = sizeof(kWords) / sizeof(kWords[0]);

size_t ValueSize(Rng& rng) {
  double u = rng.Unit();
  double lo, hi;
  if (u < 0.60) lo = 10, hi = 100;
  else if (u < 0.90) lo = 100, hi = 1000;
  else if (u < 0.98) lo = 1000, hi = 16000;
  else if (u < 0.998) lo = 16000, hi = 64000;
  else lo = 64000, hi = 100000;
  return static_cast<size_t>(lo * std::pow(hi / lo, rng.Unit()));
}

void MakeValue(Rng& rng, size_t n, bool random, std::string* v) {
  v->clear();
  if (random) {
    while (v->size() < n) {
      uint64_t x = rng.Next();
      v->append(reinterpret_cast<const char*>(&x), 8);
    }
  } else {
    *v = "{";
    while (v->size() < n) {
      uint64_t x = rng.Next();
      v->append(kWords[x % kNumWords]);
      v->push_back((x >> 8) % 4 == 0 ? ',' : ' ');
      if ((x >> 16) % 5 == 0) v->append(std::to_string((x >> 24) % 10000));
    }
  }
  v->resize(n);
}

std::string RowKey(uint64_t i, uint64_t seed) {
  char buf[96];
  switch (i % 3) {
    case 0:
      snprintf(buf, sizeof buf, "s%012llu", static_cast<unsigned long long>(i));
      break;
    case 1:
      snprintf(buf, sizeof buf, "h%016llx:%llu",
               static_cast<unsigned long long>(Mix64(i ^ seed)),
               static_cast<unsigned long long>(i));
      break;
    default: {
      uint64_t tenant = Mix64(i * 7 + seed) % 97;
      uint64_t ts = 1700000000000ull + i * 1000;
      snprintf(buf, sizeof buf, "c%04llu#%013llu#%08llx", static_cast<unsigned long long>(tenant),
               static_cast<unsigned long long>(9999999999999ull - ts),
               static_cast<unsigned long long>(Mix64(i) & 0xffffffff));
    }
  }
  return buf;
}

void PutU32(std::string* s, uint32_t v) {
  for (int i = 3; i >= 0; --i) s->push_back(static_cast<char>(v >> (8 * i)));
}
void PutU64(std::string* s, uint64_t v) {
  for (int i = 7; i >= 0; --i) s->push_back(static_cast<char>(v >> (8 * i)));
}

class Out {
 public:
  Status Open(const std::string& path, const char* magic) {
    f_ = fopen(path.c_str(), "wb");
    if (!f_) return Status::IOError("cannot create", path);
    path_ = path;
    buf_.append(magic, 8);
    return Status::OK();
  }
  std::string* buf() { return &buf_; }
  Status MaybeFlush(bool force = false) {
    if (buf_.size() < (1 << 20) && !force) return Status::OK();
    if (fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) return Status::IOError("write", path_);
    buf_.clear();
    return Status::OK();
  }
  Status Close() {
    HFILE_RETURN_IF_ERROR(MaybeFlush(true));
    if (fclose(f_) != 0) return Status::IOError("close", path_);
    f_ = nullptr;
    return Status::OK();
  }
  ~Out() { if (f_) fclose(f_); }

 private:
  FILE* f_ = nullptr;
  std::string path_, buf_;
};

void AppendCell(std::string* out, const std::string& key, const std::string& value, uint64_t seq) {
  PutU32(out, key.size());
  PutU32(out, value.size());
  PutU64(out, seq);
  out->append(key);
  out->append(value);
}

// Expected key + value bytes of one row (for sizing the row count).
constexpr double kMeanCellsPerRow = 5.5 * 1.25 + 0.02 + 5.5 * 0.03;

}  // namespace

Status GenerateData(const DataSpec& spec, const std::string& dir, DataSummary* summary) {
  // Size the row count from a sample of the value-size distribution.
  Rng probe(spec.seed ^ 0xabcdef);
  double mean_value = 0;
  for (int i = 0; i < 200000; ++i) {
    size_t n = ValueSize(probe);
    mean_value += spec.max_value > 0 && n > spec.max_value ? spec.max_value : n;
  }
  mean_value /= 200000;
  double row_bytes = kMeanCellsPerRow * (mean_value + 44);
  uint64_t rows = std::max<uint64_t>(16, static_cast<uint64_t>(spec.target_bytes / row_bytes));

  std::vector<std::string> keys(rows);
  for (uint64_t i = 0; i < rows; ++i) keys[i] = RowKey(i, spec.seed);
  std::sort(keys.begin(), keys.end());

  Out all, gets;
  std::vector<Out> parts(spec.split);
  HFILE_RETURN_IF_ERROR(all.Open(dir + "/cells.bin", kCellsMagic));
  HFILE_RETURN_IF_ERROR(gets.Open(dir + "/gets.bin", kGetsMagic));
  for (int p = 0; p < spec.split; ++p)
    HFILE_RETURN_IF_ERROR(parts[p].Open(dir + "/part" + std::to_string(p) + ".bin", kCellsMagic));

  DataSummary sum;
  std::string key, value, qual;
  uint64_t seq = 1;
  auto emit = [&](const std::string& row, const std::string& q, int64_t ts, KeyType type,
                  uint64_t part_hash) -> Status {
    key.clear();
    AppendKey(&key, row, "f", q, ts, static_cast<uint8_t>(type));
    uint64_t s = seq++;
    AppendCell(all.buf(), key, value, s);
    Out& part = parts[part_hash % spec.split];
    AppendCell(part.buf(), key, value, s);
    sum.cells++;
    sum.bytes += key.size() + value.size();
    if (type != KeyType::kPut) sum.deletes++;
    HFILE_RETURN_IF_ERROR(part.MaybeFlush());
    return all.MaybeFlush();
  };

  for (uint64_t r = 0; r < rows; ++r) {
    const std::string& row = keys[r];
    uint64_t h = HashBytes(row, spec.seed);
    Rng rng(h);
    int64_t base_ts = 1700000000000ll + static_cast<int64_t>(rng.Uniform(86400000ull * 365));
    sum.rows++;
    if (rng.Uniform(100) < 2) {
      value.clear();
      HFILE_RETURN_IF_ERROR(emit(row, "", base_ts + 5000, KeyType::kDeleteFamily, h));
    }
    int nq = 1 + static_cast<int>(rng.Uniform(10));
    // nq distinct qualifiers out of 16, in order.
    uint32_t mask = 0;
    while (__builtin_popcount(mask) < nq) mask |= 1u << rng.Uniform(16);
    for (int q = 0; q < 16; ++q) {
      if (!(mask & (1u << q))) continue;
      char qb[16];
      snprintf(qb, sizeof qb, "c%02d", q);
      qual = qb;
      uint64_t col_hash = Mix64(h + q);
      if (rng.Uniform(100) < 3) {
        value.clear();
        HFILE_RETURN_IF_ERROR(emit(row, qual, base_ts + 4000, KeyType::kDeleteColumn, col_hash));
      }
      uint64_t v = rng.Uniform(100);
      int versions = v < 80 ? 1 : v < 95 ? 2 : 3;
      for (int k = 0; k < versions; ++k) {
        bool random = rng.Uniform(4) == 0;
        size_t n = ValueSize(rng);
        if (spec.max_value > 0 && n > spec.max_value) n = spec.max_value;
        MakeValue(rng, n, random, &value);
        if (random) sum.random_values++;
        if (k > 0) sum.extra_versions++;
        HFILE_RETURN_IF_ERROR(
            emit(row, qual, base_ts - 1000 * k, KeyType::kPut, col_hash + static_cast<uint64_t>(k)));
      }
    }
  }

  // Gets: alternate a present row and an absent one (present row + "~", which sorts between it
  // and the next present row), at uniformly random rows.
  Rng grng(spec.seed * 31 + 7);
  for (uint64_t i = 0; i < spec.gets; ++i) {
    std::string row = keys[grng.Uniform(rows)];
    if (i % 2) row.push_back('~');
    std::string* b = gets.buf();
    b->push_back(static_cast<char>(row.size() >> 8));
    b->push_back(static_cast<char>(row.size()));
    b->append(row);
  }
  HFILE_RETURN_IF_ERROR(all.Close());
  HFILE_RETURN_IF_ERROR(gets.Close());
  for (auto& p : parts) HFILE_RETURN_IF_ERROR(p.Close());
  *summary = sum;
  return Status::OK();
}

CellFileReader::~CellFileReader() {
  if (f_) fclose(f_);
}

Result<std::unique_ptr<CellFileReader>> CellFileReader::Open(const std::string& path) {
  std::unique_ptr<CellFileReader> r(new CellFileReader);
  r->f_ = fopen(path.c_str(), "rb");
  if (!r->f_) return Status::IOError("cannot open", path);
  r->path_ = path;
  r->buf_.resize(1 << 20);
  if (!r->Fill(8) || memcmp(r->buf_.data(), kCellsMagic, 8) != 0)
    return Status::Corruption("not a cells file", path);
  r->pos_ = 8;
  return r;
}

bool CellFileReader::Fill(size_t need) {
  if (end_ - pos_ >= need) return true;
  memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
  end_ -= pos_;
  pos_ = 0;
  if (buf_.size() < need) buf_.resize(need);
  while (end_ < need) {
    size_t n = fread(buf_.data() + end_, 1, buf_.size() - end_, f_);
    if (n == 0) return false;
    end_ += n;
  }
  return true;
}

static uint64_t GetBE(const char* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

bool CellFileReader::ParseBuffered(Cell* cell) {
  if (end_ - pos_ < 16) return false;
  const char* p = buf_.data() + pos_;
  uint32_t klen, vlen;
  uint64_t seq;
  memcpy(&klen, p, 4);
  memcpy(&vlen, p + 4, 4);
  memcpy(&seq, p + 8, 8);
  klen = __builtin_bswap32(klen);
  vlen = __builtin_bswap32(vlen);
  if (end_ - pos_ - 16 < size_t{klen} + vlen) return false;
  cell->key = Slice(p + 16, klen);
  cell->value = Slice(p + 16 + klen, vlen);
  cell->tags = Slice();
  cell->sequence_id = __builtin_bswap64(seq);
  pos_ += 16 + size_t{klen} + vlen;
  return true;
}

bool CellFileReader::Next(Cell* cell) {
  if (!Fill(16)) {
    if (end_ != pos_) status_ = Status::Corruption("truncated cell header", path_);
    return false;
  }
  const char* p = buf_.data() + pos_;
  const size_t need = 16 + size_t{DecodeFixed32BE(p)} + DecodeFixed32BE(p + 4);
  if (!Fill(need)) {
    status_ = Status::Corruption("truncated cell", path_);
    return false;
  }
  return ParseBuffered(cell);
}

bool CellFileReader::NextBatch(CellBatch* batch) {
  batch->Clear();
  // The first cell as Next reads it (refilling as needed), then every whole cell buffered.
  if (!Next(batch->Add())) {
    batch->RemoveLast();
    return false;
  }
  while (ParseBuffered(batch->Add())) {
  }
  batch->RemoveLast();
  return true;
}

Result<std::vector<std::string>> ReadGetsFile(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) return Status::IOError("cannot open", path);
  std::string all;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) all.append(buf, n);
  fclose(f);
  if (all.size() < 8 || all.compare(0, 8, kGetsMagic) != 0)
    return Status::Corruption("not a gets file", path);
  std::vector<std::string> rows;
  for (size_t p = 8; p + 2 <= all.size();) {
    size_t len = GetBE(all.data() + p, 2);
    rows.push_back(all.substr(p + 2, len));
    p += 2 + len;
  }
  return rows;
}

}  // namespace hfile::bench
