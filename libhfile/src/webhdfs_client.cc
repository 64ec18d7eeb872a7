// WebHdfsClient on libcurl: one easy handle per client (keeps its connections alive), redirects
// followed by hand so that each hop's URL is in the error and CREATE can send its body to the
// DataNode only.
#include <curl/curl.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "hfile/webhdfs.h"

namespace hfile {
namespace {

constexpr int kMaxRedirects = 5;
// LISTSTATUS of a directory of a million entries is ~300 MB of JSON; more is refused.
constexpr size_t kMaxJsonReply = size_t{512} << 20;

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string LoginUser() {
  if (const char* u = std::getenv("HADOOP_USER_NAME"); u && *u) return u;
  if (struct passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_name) return pw->pw_name;
  if (const char* u = std::getenv("USER"); u && *u) return u;
  return "hfilekit";
}

// RFC 3986 unreserved characters and '/' stay; everything else is %XX (HBase names hold '=',
// ',', '.' ...; a path never reaches the server half-escaped).
std::string EncodePath(const std::string& path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string EncodeParam(const std::string& v) {
  std::string out = EncodePath(v);
  std::string r;
  for (char c : out) r += c == '/' ? std::string("%2F") : std::string(1, c);
  return r;
}

// A reply body may not exceed `max_body` bytes (an OPEN: the length asked), so a server
// sending more cannot grow memory past what the caller budgeted.
struct Reply {
  long status = 0;
  std::string body;
  std::string location;  // of a redirect
  std::string url;       // the URL that gave this reply
  size_t max_body = kMaxJsonReply;
  bool too_long = false;
};

size_t AppendBody(char* data, size_t size, size_t n, void* user) {
  auto* r = static_cast<Reply*>(user);
  if (r->body.size() + size * n > r->max_body) {
    r->too_long = true;
    return 0;  // curl stops with CURLE_WRITE_ERROR
  }
  r->body.append(data, size * n);
  return size * n;
}

// A request body streamed from a BodyReader; the reader's error, if any, is kept for the caller
// (curl only learns that the upload was aborted).
struct Upload {
  const BodyReader* read = nullptr;
  uint64_t left = 0;
  Status error;
};

size_t ReadBody(char* buf, size_t size, size_t n, void* user) {
  auto* u = static_cast<Upload*>(user);
  const size_t want = static_cast<size_t>(std::min<uint64_t>(size * n, u->left));
  if (want == 0) return 0;
  auto got = (*u->read)(buf, want);
  if (!got.ok()) {
    u->error = got.status();
    return CURL_READFUNC_ABORT;
  }
  if (*got == 0) {
    u->error = Status::IOError("the body", fmt::format("ended {} bytes early", u->left));
    return CURL_READFUNC_ABORT;
  }
  u->left -= *got;
  return *got;
}

}  // namespace

struct WebHdfsClient::Rep {
  std::string address;
  WebHdfsOptions options;
  std::string user;
  CURL* curl = nullptr;
  uint64_t requests = 0;

  ~Rep() {
    if (curl) curl_easy_cleanup(curl);
  }

  std::string Url(const std::string& path, const std::string& op, const std::string& params) {
    return fmt::format("http://{}/webhdfs/v1{}?op={}&user.name={}{}", address, EncodePath(path),
                       op, EncodeParam(user), params);
  }

  // One HTTP exchange (no redirect following); `upload`, when given, is a PUT's body, streamed.
  Status Send(const char* method, const std::string& url, Reply* reply,
              Upload* upload = nullptr) {
    curl_easy_reset(curl);
    reply->status = 0;
    reply->body.clear();
    reply->location.clear();
    reply->url = url;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    // Redirects are followed by hand: a Location must not reach file:// or other schemes.
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    // No proxy from http_proxy & co., as Hadoop's own (Java) client: the NameNode and DataNodes
    // are reached directly.
    curl_easy_setopt(curl, CURLOPT_PROXY, "");
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, options.connect_timeout_seconds);
    if (options.stall_timeout_seconds > 0) {
      curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
      curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, options.stall_timeout_seconds);
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, AppendBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, reply);
    reply->too_long = false;
    struct curl_slist* headers = nullptr;
    // No "Expect: 100-continue" round trip before a body.
    headers = curl_slist_append(headers, "Expect:");
    if (std::string(method) == "GET") {
      curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    } else {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
      if (upload) {
        headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
        curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, ReadBody);
        curl_easy_setopt(curl, CURLOPT_READDATA, upload);
        curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(upload->left));
      } else if (std::string(method) == "PUT") {
        // An empty PUT still says Content-Length: 0 (some servers want a length).
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t{0});
      }
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    ++requests;
    const CURLcode rc = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    if (upload && !upload->error.ok()) {
      return Status::IOError(fmt::format("{} {}", method, url), upload->error.ToString());
    }
    if (rc == CURLE_WRITE_ERROR && reply->too_long) {
      return Status::IOError(fmt::format("{} {}", method, url),
                             fmt::format("the reply is longer than the {} bytes asked for",
                                         reply->max_body));
    }
    if (rc != CURLE_OK) {
      const bool no_server = rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST;
      return Status::IOError(
          fmt::format("{} {}", method, url),
          fmt::format("{}{}", curl_easy_strerror(rc),
                      no_server ? " (is the NameNode/DataNode up, WebHDFS enabled, and the "
                                  "HTTP address right?)"
                                : ""));
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply->status);
    char* loc = nullptr;
    if (curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc) {
      reply->location = loc;
    }
    return Status::OK();
  }

  // An error reply as a Status: "<OP> <url>: HTTP <code>: <exception>: <message>".
  static Status ErrorOf(const std::string& op, const Reply& r) {
    std::string what = fmt::format("HTTP {}", r.status);
    bool not_found = r.status == 404;
    auto j = nlohmann::json::parse(r.body, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("RemoteException") && j["RemoteException"].is_object()) {
      const auto& e = j["RemoteException"];
      const std::string ex = e.value("exception", std::string("RemoteException"));
      what += fmt::format(": {}: {}", ex, e.value("message", std::string()));
      not_found = ex == "FileNotFoundException";
    } else if (!r.body.empty()) {
      std::string text = r.body.substr(0, 200);
      for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
      what += ": " + text;
    }
    const std::string context = fmt::format("WebHDFS {} {}", op, r.url);
    return not_found ? Status::NotFound(context, what) : Status::IOError(context, what);
  }

  // Sends and follows up to kMaxRedirects redirects; the final reply must be `want`.
  Status Call(const std::string& op, const char* method, const std::string& url, int want,
              Reply* reply) {
    std::string next = url;
    for (int hop = 0;; ++hop) {
      HFILE_RETURN_IF_ERROR(Send(method, next, reply).WithContext("WebHDFS " + op));
      const bool redirect = reply->status == 301 || reply->status == 302 ||
                            reply->status == 303 || reply->status == 307 || reply->status == 308;
      if (!redirect) break;
      if (reply->location.empty()) {
        return Status::IOError(fmt::format("WebHDFS {} {}", op, next),
                               fmt::format("HTTP {} without a Location", reply->status));
      }
      if (hop + 1 >= kMaxRedirects) {
        return Status::IOError(fmt::format("WebHDFS {} {}", op, url),
                               fmt::format("more than {} redirects", kMaxRedirects));
      }
      next = reply->location;
    }
    if (reply->status != want) return ErrorOf(op, *reply);
    return Status::OK();
  }

  Result<nlohmann::json> CallJson(const std::string& op, const char* method,
                                  const std::string& url) {
    Reply r;
    HFILE_RETURN_IF_ERROR(Call(op, method, url, 200, &r));
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    if (j.is_discarded()) {
      return Status::IOError(fmt::format("WebHDFS {} {}", op, r.url),
                             "the reply is not JSON: " + r.body.substr(0, 200));
    }
    return j;
  }

  Result<bool> CallBoolean(const std::string& op, const char* method, const std::string& url) {
    HFILE_ASSIGN_OR_RETURN(auto j, CallJson(op, method, url));
    if (!j.is_object() || !j.contains("boolean") || !j["boolean"].is_boolean()) {
      return Status::IOError(fmt::format("WebHDFS {} {}", op, url),
                             "the reply has no \"boolean\": " + j.dump());
    }
    return j["boolean"].get<bool>();
  }
};

namespace {
Result<HdfsFileStatus> ParseStatus(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("type") || !j.contains("length")) {
    return Status::IOError(where, "a FileStatus without type and length: " + j.dump());
  }
  HdfsFileStatus s;
  s.name = j.value("pathSuffix", std::string());
  s.is_directory = j.value("type", std::string()) == "DIRECTORY";
  s.length = j.value("length", uint64_t{0});
  s.block_size = j.value("blockSize", uint64_t{0});
  s.replication = j.value("replication", 0);
  s.modification_time_ms = j.value("modificationTime", int64_t{0});
  s.owner = j.value("owner", std::string());
  s.group = j.value("group", std::string());
  s.permission = j.value("permission", std::string());
  return s;
}
}  // namespace

Result<std::unique_ptr<WebHdfsClient>> WebHdfsClient::Create(const std::string& http_address,
                                                             const WebHdfsOptions& options) {
  if (http_address.empty() || http_address.find_first_of("/?# ") != std::string::npos) {
    return Status::InvalidArgument("WebHDFS address '" + http_address + "'",
                                   "expected HOST:PORT of the NameNode's HTTP server");
  }
  GlobalInit();
  auto rep = std::make_unique<Rep>();
  rep->address = http_address;
  rep->options = options;
  rep->user = options.user.empty() ? LoginUser() : options.user;
  rep->curl = curl_easy_init();
  if (!rep->curl) return Status::IOError("WebHDFS", "curl_easy_init failed");
  return std::unique_ptr<WebHdfsClient>(new WebHdfsClient(std::move(rep)));
}

WebHdfsClient::WebHdfsClient(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
WebHdfsClient::~WebHdfsClient() = default;

const std::string& WebHdfsClient::http_address() const { return rep_->address; }
uint64_t WebHdfsClient::requests() const { return rep_->requests; }

Result<HdfsFileStatus> WebHdfsClient::GetFileStatus(const std::string& path) {
  const std::string url = rep_->Url(path, "GETFILESTATUS", "");
  HFILE_ASSIGN_OR_RETURN(auto j, rep_->CallJson("GETFILESTATUS", "GET", url));
  if (!j.contains("FileStatus")) {
    return Status::IOError("WebHDFS GETFILESTATUS " + url, "no FileStatus in " + j.dump());
  }
  return ParseStatus(j["FileStatus"], "WebHDFS GETFILESTATUS " + url);
}

Result<std::vector<HdfsFileStatus>> WebHdfsClient::ListStatus(const std::string& path) {
  const std::string url = rep_->Url(path, "LISTSTATUS", "");
  HFILE_ASSIGN_OR_RETURN(auto j, rep_->CallJson("LISTSTATUS", "GET", url));
  const nlohmann::json* list = nullptr;
  if (j.contains("FileStatuses") && j["FileStatuses"].contains("FileStatus"))
    list = &j["FileStatuses"]["FileStatus"];
  if (!list || !list->is_array()) {
    return Status::IOError("WebHDFS LISTSTATUS " + url, "no FileStatuses in " + j.dump());
  }
  std::vector<HdfsFileStatus> out;
  out.reserve(list->size());
  for (const auto& e : *list) {
    HFILE_ASSIGN_OR_RETURN(auto s, ParseStatus(e, "WebHDFS LISTSTATUS " + url));
    out.push_back(std::move(s));
  }
  return out;
}

Status WebHdfsClient::Open(const std::string& path, uint64_t offset, uint64_t length,
                           std::string* out) {
  const std::string url =
      rep_->Url(path, "OPEN", fmt::format("&offset={}&length={}", offset, length));
  Reply r;
  // Error bodies (RemoteException JSON) are small; data beyond `length` is refused.
  r.max_body = std::max<uint64_t>(length, 64 << 10);
  HFILE_RETURN_IF_ERROR(rep_->Call("OPEN", "GET", url, 200, &r));
  if (r.body.size() > length) {
    return Status::IOError(fmt::format("WebHDFS OPEN {}", r.url),
                           fmt::format("asked for {} bytes, got {}", length, r.body.size()));
  }
  if (out->empty()) {
    out->swap(r.body);  // the window's bytes, not copied again
  } else {
    out->append(r.body);
  }
  return Status::OK();
}

Status WebHdfsClient::CreateFile(const std::string& path, const Slice& data, bool overwrite) {
  size_t sent = 0;
  const BodyReader read = [&data, &sent](char* buf, size_t n) -> Result<size_t> {
    const size_t k = std::min(n, data.size() - sent);
    std::memcpy(buf, data.data() + sent, k);
    sent += k;
    return k;
  };
  return CreateFileStreaming(path, data.size(), read, overwrite);
}

Status WebHdfsClient::CreateFileStreaming(const std::string& path, uint64_t length,
                                          const BodyReader& read, bool overwrite) {
  const std::string url =
      rep_->Url(path, "CREATE", fmt::format("&overwrite={}", overwrite ? "true" : "false"));
  Reply r;
  HFILE_RETURN_IF_ERROR(rep_->Send("PUT", url, &r).WithContext("WebHDFS CREATE"));
  if (r.status != 307 || r.location.empty()) {
    if (r.status == 307) return Status::IOError("WebHDFS CREATE " + url, "307 without Location");
    return Rep::ErrorOf("CREATE", r);
  }
  Upload up;
  up.read = &read;
  up.left = length;
  Reply w;
  HFILE_RETURN_IF_ERROR(
      rep_->Send("PUT", r.location, &w, &up).WithContext("WebHDFS CREATE"));
  if (w.status != 201) return Rep::ErrorOf("CREATE", w);
  if (up.left != 0) {
    return Status::IOError("WebHDFS CREATE " + w.url,
                           fmt::format("{} bytes of the body were not sent", up.left));
  }
  return Status::OK();
}

Status WebHdfsClient::CreateFileFromLocal(const std::string& path, const std::string& local_path,
                                          bool overwrite) {
  const int fd = ::open(local_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot open " + local_path, std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size < 0 || ::lseek(fd, 0, SEEK_SET) != 0)
    return Status::IOError("cannot seek " + local_path, std::strerror(errno));
  BodyReader read = [&](char* buf, size_t n) -> Result<size_t> {
    for (;;) {
      const ssize_t got = ::read(fd, buf, n);
      if (got >= 0) return static_cast<size_t>(got);
      if (errno != EINTR) return Status::IOError("cannot read " + local_path, std::strerror(errno));
    }
  };
  return CreateFileStreaming(path, static_cast<uint64_t>(size), read, overwrite);
}

Status WebHdfsClient::RenameStrict(const std::string& from, const std::string& to,
                                   bool overwrite) {
  // With renameoptions the NameNode calls rename2, which answers 200 with no body and reports a
  // refusal (target exists, parent missing) as a RemoteException.
  const std::string url =
      rep_->Url(from, "RENAME", fmt::format("&destination={}&renameoptions={}", EncodeParam(to),
                                            overwrite ? "OVERWRITE" : "NONE"));
  Reply r;
  HFILE_RETURN_IF_ERROR(rep_->Call("RENAME", "PUT", url, 200, &r));
  // A server that ignores renameoptions did a plain rename and says how with a boolean.
  auto j = nlohmann::json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  if (j.is_object() && j.contains("boolean") && j["boolean"].is_boolean() &&
      !j["boolean"].get<bool>()) {
    return Status::NotSupported(
        fmt::format("WebHDFS RENAME {} to {}", from, to),
        "refused, and the NameNode ignored renameoptions (no rename2 over WebHDFS)");
  }
  return Status::OK();
}

Result<std::vector<HdfsBlockLocation>> WebHdfsClient::GetFileBlockLocations(
    const std::string& path, uint64_t offset, uint64_t length) {
  const std::string range = fmt::format("&offset={}&length={}", offset, length);
  std::vector<HdfsBlockLocation> out;
  auto strings = [](const nlohmann::json& a, std::vector<std::string>* v) {
    if (!a.is_array()) return;
    for (const auto& h : a)
      if (h.is_string()) v->push_back(h.get<std::string>());
  };
  const std::string url = rep_->Url(path, "GETFILEBLOCKLOCATIONS", range);
  auto j = rep_->CallJson("GETFILEBLOCKLOCATIONS", "GET", url);
  if (j.ok()) {
    const nlohmann::json* list = nullptr;
    if (j->contains("BlockLocations") && (*j)["BlockLocations"].contains("BlockLocation"))
      list = &(*j)["BlockLocations"]["BlockLocation"];
    if (!list || !list->is_array())
      return Status::IOError("WebHDFS GETFILEBLOCKLOCATIONS " + url,
                             "no BlockLocations in " + j->dump().substr(0, 200));
    for (const auto& b : *list) {
      HdfsBlockLocation l;
      l.offset = b.value("offset", uint64_t{0});
      l.length = b.value("length", uint64_t{0});
      if (b.contains("hosts")) strings(b["hosts"], &l.hosts);
      out.push_back(std::move(l));
    }
    return out;
  }
  if (j.status().IsNotFound()) return j.status();
  // Before Hadoop 3.3 the op is unknown (HTTP 400): the NameNode's own LocatedBlocks.
  const std::string old_url = rep_->Url(path, "GET_BLOCK_LOCATIONS", range);
  HFILE_ASSIGN_OR_RETURN(auto lb, rep_->CallJson("GET_BLOCK_LOCATIONS", "GET", old_url));
  const nlohmann::json* list = nullptr;
  if (lb.contains("LocatedBlocks") && lb["LocatedBlocks"].contains("locatedBlocks"))
    list = &lb["LocatedBlocks"]["locatedBlocks"];
  if (!list || !list->is_array())
    return Status::IOError("WebHDFS GET_BLOCK_LOCATIONS " + old_url,
                           "no LocatedBlocks in " + lb.dump().substr(0, 200));
  for (const auto& b : *list) {
    HdfsBlockLocation l;
    l.offset = b.value("startOffset", uint64_t{0});
    if (b.contains("block") && b["block"].is_object())
      l.length = b["block"].value("numBytes", uint64_t{0});
    if (b.contains("locations") && b["locations"].is_array()) {
      for (const auto& d : b["locations"]) {
        std::string h = d.value("hostName", std::string());
        if (h.empty()) h = d.value("ipAddr", std::string());
        if (!h.empty()) l.hosts.push_back(std::move(h));
      }
    }
    out.push_back(std::move(l));
  }
  return out;
}

Status WebHdfsClient::Rename(const std::string& from, const std::string& to) {
  const std::string url = rep_->Url(from, "RENAME", "&destination=" + EncodeParam(to));
  HFILE_ASSIGN_OR_RETURN(bool ok, rep_->CallBoolean("RENAME", "PUT", url));
  if (!ok) {
    return Status::IOError(fmt::format("WebHDFS RENAME {} to {}", from, to),
                           "refused by the NameNode (source missing, or target exists?)");
  }
  return Status::OK();
}

Status WebHdfsClient::Delete(const std::string& path, bool recursive, bool* existed) {
  const std::string url =
      rep_->Url(path, "DELETE", fmt::format("&recursive={}", recursive ? "true" : "false"));
  HFILE_ASSIGN_OR_RETURN(bool deleted, rep_->CallBoolean("DELETE", "DELETE", url));
  if (existed) *existed = deleted;
  return Status::OK();
}

Status WebHdfsClient::Mkdirs(const std::string& path) {
  const std::string url = rep_->Url(path, "MKDIRS", "");
  HFILE_ASSIGN_OR_RETURN(bool ok, rep_->CallBoolean("MKDIRS", "PUT", url));
  if (!ok) return Status::IOError("WebHDFS MKDIRS " + url, "refused by the NameNode");
  return Status::OK();
}

}  // namespace hfile
