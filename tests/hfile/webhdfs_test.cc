// WebHDFS client, URI resolution and the cached remote file, against a tiny loopback HTTP
// server that speaks the parts of WebHDFS the client uses (redirects, RemoteException bodies,
// ranged OPEN). The real NameNode is tests/hdfs (MiniDFSCluster).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hfile/reader.h"
#include "hfile/webhdfs.h"
#include "testutil.h"
#include "webhdfs_file.h"

namespace hfile {
namespace {

struct HttpRequest {
  std::string method, target, path;
  std::map<std::string, std::string> query;
  std::string body;
};
struct HttpResponse {
  int status = 200;
  std::string body;
  std::string location;
};

// One thread accepting on 127.0.0.1:<ephemeral>; one request per connection
// (Connection: close), handled in order.
class LoopbackServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;
  explicit LoopbackServer(Handler h) : handler_(std::move(h)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    socklen_t len = sizeof(a);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    EXPECT_EQ(::listen(fd_, 16), 0);
    thread_ = std::thread([this] { Loop(); });
  }
  ~LoopbackServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::vector<HttpRequest> requests() {
    std::lock_guard<std::mutex> l(mu_);
    return seen_;
  }

 private:
  static std::string Decode(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '%' && i + 2 < s.size()) {
        out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
        i += 2;
      } else {
        out.push_back(s[i]);
      }
    }
    return out;
  }
  void Loop() {
    while (!stop_) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      Serve(c);
      ::close(c);
    }
  }
  void Serve(int c) {
    std::string in;
    char buf[65536];
    size_t header_end;
    while ((header_end = in.find("\r\n\r\n")) == std::string::npos) {
      ssize_t r = ::read(c, buf, sizeof(buf));
      if (r <= 0) return;
      in.append(buf, r);
    }
    HttpRequest req;
    const std::string head = in.substr(0, header_end);
    const size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
    req.method = head.substr(0, sp1);
    req.target = head.substr(sp1 + 1, sp2 - sp1 - 1);
    const size_t q = req.target.find('?');
    req.path = Decode(req.target.substr(0, q));
    if (q != std::string::npos) {
      std::string qs = req.target.substr(q + 1);
      size_t p = 0;
      while (p <= qs.size()) {
        size_t amp = qs.find('&', p);
        if (amp == std::string::npos) amp = qs.size();
        std::string kv = qs.substr(p, amp - p);
        const size_t eq = kv.find('=');
        if (!kv.empty()) {
          req.query[kv.substr(0, eq)] = eq == std::string::npos ? "" : Decode(kv.substr(eq + 1));
        }
        p = amp + 1;
      }
    }
    size_t content_length = 0;
    for (std::string h : {"Content-Length: ", "content-length: "}) {
      const size_t at = head.find(h);
      if (at != std::string::npos) content_length = std::stoul(head.substr(at + h.size()));
    }
    req.body = in.substr(header_end + 4);
    while (req.body.size() < content_length) {
      ssize_t r = ::read(c, buf, sizeof(buf));
      if (r <= 0) break;
      req.body.append(buf, r);
    }
    {
      std::lock_guard<std::mutex> l(mu_);
      seen_.push_back(req);
    }
    HttpResponse resp = handler_(req);
    std::string out = "HTTP/1.1 " + std::to_string(resp.status) + " X\r\nConnection: close\r\n";
    if (!resp.location.empty()) out += "Location: " + resp.location + "\r\n";
    out += "Content-Length: " + std::to_string(resp.body.size()) + "\r\n\r\n" + resp.body;
    for (size_t done = 0; done < out.size();) {
      ssize_t w = ::write(c, out.data() + done, out.size() - done);
      if (w <= 0) return;
      done += w;
    }
  }

  Handler handler_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mu_;
  std::vector<HttpRequest> seen_;
};

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1); else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1); else ::unsetenv(name_);
  }
 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string NotFoundBody(const std::string& path) {
  return R"({"RemoteException":{"exception":"FileNotFoundException","javaClassName":)"
         R"("java.io.FileNotFoundException","message":"File does not exist: )" + path + "\"}}";
}

using Files = std::map<std::string, std::string>;

// A read-only "NameNode + DataNode" serving `files` (HDFS path -> bytes): GETFILESTATUS, and
// OPEN redirected (307) from /webhdfs/v1 to /datanode/webhdfs/v1 like a NameNode does.
class FakeHdfs {
 public:
  explicit FakeHdfs(std::map<std::string, std::string> files)
      : files_(std::move(files)), server_([this](const HttpRequest& r) { return Handle(r); }) {}
  std::string address() const { return server_.address(); }
  LoopbackServer& server() { return server_; }
  std::atomic<int> opens{0};

 private:
  HttpResponse Handle(const HttpRequest& r) {
    const std::string nn = "/webhdfs/v1", dn = "/datanode/webhdfs/v1";
    const bool at_dn = r.path.rfind(dn, 0) == 0;
    const std::string path = r.path.substr(at_dn ? dn.size() : nn.size());
    auto it = files_.find(path);
    const std::string op = r.query.count("op") ? r.query.at("op") : "";
    if (it == files_.end()) return {404, NotFoundBody(path), ""};
    if (op == "GETFILESTATUS") {
      return {200,
              R"({"FileStatus":{"pathSuffix":"","type":"FILE","length":)" +
                  std::to_string(it->second.size()) +
                  R"(,"blockSize":134217728,"replication":1,"owner":"u","group":"g",)"
                  R"("permission":"644","modificationTime":1}})",
              ""};
    }
    if (op == "OPEN" && !at_dn) {
      return {307, "", "http://" + address() + dn + r.target.substr(nn.size())};
    }
    if (op == "OPEN") {
      ++opens;
      const uint64_t off = std::stoull(r.query.at("offset"));
      const uint64_t len = std::stoull(r.query.at("length"));
      if (off > it->second.size()) return {403, "{}", ""};
      return {200, it->second.substr(off, len), ""};
    }
    return {400, "{}", ""};
  }
  std::map<std::string, std::string> files_;
  LoopbackServer server_;
};

TEST(WebHdfsUri, WebhdfsSchemeNamesTheHttpServer) {
  auto loc = ResolveHdfsUri("webhdfs://nn.example:50070/hbase/data/x", {});
  ASSERT_TRUE(loc.ok()) << loc.status().ToString();
  EXPECT_EQ(loc->http_address, "nn.example:50070");
  EXPECT_EQ(loc->path, "/hbase/data/x");
  loc = ResolveHdfsUri("webhdfs://nn.example/a", {});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->http_address, "nn.example:9870");
  EXPECT_FALSE(ResolveHdfsUri("webhdfs:///a", {}).ok());
}

TEST(WebHdfsUri, FlagThenEnvironmentThenHdfsSiteThenDefaultPort) {
  const std::string dir = test::NewTempDir("webhdfs_uri");
  test::WriteFileOrDie(dir + "/hdfs-site.xml", R"(<?xml version="1.0"?>
<configuration>
  <property><name>dfs.replication</name><value>1</value></property>
  <property>
    <name>dfs.namenode.http-address</name>
    <value> 0.0.0.0:50070 </value>
  </property>
  <property><name>dfs.namenode.http-address.ns2</name><value>nn2.example:1234</value></property>
</configuration>
)");
  ScopedEnv conf("HADOOP_CONF_DIR", dir.c_str());
  ScopedEnv none("HFILE_WEBHDFS", nullptr);
  // hdfs-site.xml: the wildcard bind host becomes the URI's host; the RPC port is not used.
  auto loc = ResolveHdfsUri("hdfs://nn1.example:8020/hbase/a%2Cb", {});
  ASSERT_TRUE(loc.ok()) << loc.status().ToString();
  EXPECT_EQ(loc->http_address, "nn1.example:50070");
  EXPECT_EQ(loc->path, "/hbase/a,b");
  EXPECT_NE(loc->where.find("hdfs-site.xml"), std::string::npos) << loc->where;
  // A per-nameservice key wins over the plain one.
  loc = ResolveHdfsUri("hdfs://ns2/x", {});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->http_address, "nn2.example:1234");
  {
    ScopedEnv env("HFILE_WEBHDFS", "envhost:1");
    loc = ResolveHdfsUri("hdfs://nn1.example:8020/x", {});
    ASSERT_TRUE(loc.ok());
    EXPECT_EQ(loc->http_address, "envhost:1");
    EXPECT_EQ(loc->where, "$HFILE_WEBHDFS");
    WebHdfsOptions o;
    o.address = "flaghost:2";
    loc = ResolveHdfsUri("hdfs://nn1.example:8020/x", o);
    ASSERT_TRUE(loc.ok());
    EXPECT_EQ(loc->http_address, "flaghost:2");
    EXPECT_EQ(loc->where, "--webhdfs");
  }
  ScopedEnv no_conf("HADOOP_CONF_DIR", nullptr);
  loc = ResolveHdfsUri("hdfs://nn1.example:8020/x", {});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->http_address, "nn1.example:9870");
  auto bad = ResolveHdfsUri("hdfs:///x", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsInvalidArgument());
  EXPECT_NE(bad.status().message().find("--webhdfs"), std::string::npos);
  EXPECT_FALSE(ResolveHdfsUri("hdfs://nn/x?op=OPEN", {}).ok());
  EXPECT_TRUE(IsHdfsUri("hdfs://a/b"));
  EXPECT_TRUE(IsHdfsUri("webhdfs://a/b"));
  EXPECT_FALSE(IsHdfsUri("s3a://a/b"));
  EXPECT_FALSE(IsHdfsUri("/hdfs://"));
}

TEST(WebHdfsClient, FollowsTheRedirectToTheDataNode) {
  FakeHdfs fs(Files{{"/d/f", "0123456789abcdef"}});
  auto c = WebHdfsClient::Create(fs.address(), {});
  ASSERT_TRUE(c.ok());
  std::string out;
  ASSERT_TRUE((*c)->Open("/d/f", 3, 5, &out).ok());
  EXPECT_EQ(out, "34567");
  EXPECT_EQ((*c)->requests(), 2u);  // NameNode, then DataNode
  auto reqs = fs.server().requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].path, "/webhdfs/v1/d/f");
  EXPECT_EQ(reqs[0].query["offset"], "3");
  EXPECT_EQ(reqs[0].query["length"], "5");
  EXPECT_FALSE(reqs[0].query["user.name"].empty());
  EXPECT_EQ(reqs[1].path, "/datanode/webhdfs/v1/d/f");
  auto st = (*c)->GetFileStatus("/d/f");
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->length, 16u);
  EXPECT_FALSE(st->is_directory);
  EXPECT_EQ(st->replication, 1);
}

TEST(WebHdfsClient, ARedirectToAnotherSchemeIsRefused) {
  LoopbackServer server([](const HttpRequest&) {
    return HttpResponse{307, "", "file:///etc/hostname"};
  });
  auto c = WebHdfsClient::Create(server.address(), {});
  ASSERT_TRUE(c.ok());
  std::string out;
  Status s = (*c)->Open("/f", 0, 10, &out);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(out.empty());
  EXPECT_NE(s.ToString().find("file:///etc/hostname"), std::string::npos) << s.ToString();
}

TEST(WebHdfsClient, AReplyLongerThanAskedIsRefusedNotHeld) {
  const std::string big(1 << 20, 'b');
  LoopbackServer server([&](const HttpRequest&) { return HttpResponse{200, big, ""}; });
  auto c = WebHdfsClient::Create(server.address(), {});
  ASSERT_TRUE(c.ok());
  std::string out;
  Status s = (*c)->Open("/f", 0, 100000, &out);
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("longer than the 100000 bytes asked for"), std::string::npos)
      << s.ToString();
  EXPECT_TRUE(out.empty());
}

TEST(WebHdfsClient, ProxyVariablesAreNotUsed) {
  FakeHdfs fs(Files{{"/f", "abc"}});
  // A proxy that does not exist: a client using it would fail.
  ScopedEnv proxy("http_proxy", "http://127.0.0.1:1");
  ScopedEnv no_proxy("no_proxy", nullptr);
  auto c = WebHdfsClient::Create(fs.address(), {});
  ASSERT_TRUE(c.ok());
  auto st = (*c)->GetFileStatus("/f");
  EXPECT_TRUE(st.ok()) << st.status().ToString();
}

TEST(WebHdfsClient, RemoteExceptionIsDecodedWithUrlAndStatus) {
  FakeHdfs fs(Files{});
  auto c = WebHdfsClient::Create(fs.address(), {});
  ASSERT_TRUE(c.ok());
  auto st = (*c)->GetFileStatus("/no/such");
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(st.status().IsNotFound()) << st.status().ToString();
  const std::string m = st.status().ToString();
  EXPECT_NE(m.find("GETFILESTATUS http://" + fs.address() + "/webhdfs/v1/no/such?op="),
            std::string::npos) << m;
  EXPECT_NE(m.find("HTTP 404: FileNotFoundException: File does not exist: /no/such"),
            std::string::npos) << m;
}

TEST(WebHdfsClient, PathsAreEscaped) {
  FakeHdfs fs(Files{{"/t/a b,c=d%e", "x"}});
  auto c = WebHdfsClient::Create(fs.address(), {});
  ASSERT_TRUE(c.ok());
  auto st = (*c)->GetFileStatus("/t/a b,c=d%e");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  auto reqs = fs.server().requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].target.substr(0, reqs[0].target.find('?')), "/webhdfs/v1/t/a%20b%2Cc%3Dd%25e");
}

TEST(WebHdfsClient, WritesInTwoStepsAndReportsBooleans) {
  std::string self;  // the server's own address, for its redirects
  std::string created_path, created_body, rename_to;
  bool rename_answer = true;
  LoopbackServer server([&](const HttpRequest& r) -> HttpResponse {
    const std::string op = r.query.count("op") ? r.query.at("op") : "";
    if (op == "CREATE" && r.path.rfind("/dn/", 0) != 0) {
      // The NameNode step carries no data.
      if (!r.body.empty()) {
        return {400, R"({"RemoteException":{"exception":"X","message":"data at the NN"}})", ""};
      }
      return {307, "", "http://" + self + "/dn" + r.target};
    }
    if (op == "CREATE") {
      created_path = r.path;
      created_body = r.body;
      return {201, "", ""};
    }
    if (op == "RENAME") {
      rename_to = r.query.at("destination");
      return {200, rename_answer ? R"({"boolean":true})" : R"({"boolean":false})", ""};
    }
    if (op == "DELETE") return {200, R"({"boolean":false})", ""};
    if (op == "MKDIRS") return {200, R"({"boolean":true})", ""};
    if (op == "LISTSTATUS") {
      return {200, R"({"FileStatuses":{"FileStatus":[)"
                   R"({"pathSuffix":"a","type":"FILE","length":3},)"
                   R"({"pathSuffix":"sub","type":"DIRECTORY","length":0}]}})", ""};
    }
    return {400, "{}", ""};
  });
  self = server.address();
  auto c = WebHdfsClient::Create(server.address(), {});
  ASSERT_TRUE(c.ok());
  std::string payload(100000, 'p');
  Status s = (*c)->CreateFile("/w/f", Slice(payload), false);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(created_path, "/dn/webhdfs/v1/w/f");
  EXPECT_EQ(created_body, payload);
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].method, "PUT");
  EXPECT_EQ(reqs[0].query["overwrite"], "false");
  EXPECT_TRUE(reqs[0].body.empty());
  EXPECT_EQ(reqs[1].method, "PUT");

  ASSERT_TRUE((*c)->Rename("/w/f", "/w/g h").ok());
  EXPECT_EQ(rename_to, "/w/g h");
  rename_answer = false;
  s = (*c)->Rename("/w/f", "/w/g");
  EXPECT_TRUE(s.IsIOError());
  EXPECT_NE(s.ToString().find("RENAME /w/f to /w/g"), std::string::npos) << s.ToString();
  bool existed = true;
  ASSERT_TRUE((*c)->Delete("/w/x", true, &existed).ok());
  EXPECT_FALSE(existed);
  EXPECT_EQ(server.requests().back().method, "DELETE");
  EXPECT_EQ(server.requests().back().query["recursive"], "true");
  ASSERT_TRUE((*c)->Mkdirs("/w/d").ok());
  auto list = (*c)->ListStatus("/w");
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].name, "a");
  EXPECT_EQ((*list)[0].length, 3u);
  EXPECT_TRUE((*list)[1].is_directory);
}

TEST(WebHdfsClient, NoServerIsAClearIoError) {
  int port;
  {
    LoopbackServer s([](const HttpRequest&) { return HttpResponse{}; });
    port = std::stoi(s.address().substr(10));
  }  // closed: nothing listens there now
  auto c = WebHdfsClient::Create("127.0.0.1:" + std::to_string(port), {});
  ASSERT_TRUE(c.ok());
  auto st = (*c)->GetFileStatus("/x");
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(st.status().IsIOError());
  const std::string m = st.status().ToString();
  EXPECT_NE(m.find("http://127.0.0.1:" + std::to_string(port) + "/webhdfs/v1/x"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("onnect"), std::string::npos) << m;
  EXPECT_FALSE(WebHdfsClient::Create("a/b", {}).ok());
}

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + i / 251) & 0xFF);
  return s;
}

TEST(WebHdfsFile, SmallReadsOfAScanShareReadAheadWindows) {
  const std::string data = Pattern(1 << 20);
  FakeHdfs fs(Files{{"/f", data}});
  WebHdfsOptions o;
  o.cache_bytes = 64 << 10;
  o.read_ahead_bytes = 16 << 10;
  auto f = WebHdfsFile::Open("webhdfs://" + fs.address() + "/f", o);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  ASSERT_EQ((*f)->size(), data.size());
  std::string got(data.size(), '\0');
  for (size_t off = 0; off < data.size(); off += 100) {
    const size_t n = std::min<size_t>(100, data.size() - off);
    ASSERT_TRUE((*f)->Read(off, n, &got[off]).ok()) << off;
    ASSERT_LE((*f)->cached_bytes(), o.cache_bytes);
  }
  EXPECT_EQ(got, data);
  // 64 windows of 16 KiB, 2 requests each (NameNode redirect + DataNode), + GETFILESTATUS.
  EXPECT_EQ(fs.opens.load(), 64);
  EXPECT_EQ((*f)->requests(), 64u * 2 + 1);
}

TEST(WebHdfsFile, TrailerReadBringsTheTailAndLargeReadsBypassTheCache) {
  const std::string data = Pattern(300 << 10);
  FakeHdfs fs(Files{{"/f", data}});
  WebHdfsOptions o;
  o.cache_bytes = 64 << 10;
  o.read_ahead_bytes = 32 << 10;
  auto f = WebHdfsFile::Open("webhdfs://" + fs.address() + "/f", o);
  ASSERT_TRUE(f.ok());
  char buf[100];
  // The trailer read at the very end fetches the last 32 KiB: reads just before it are hits.
  ASSERT_TRUE((*f)->Read(data.size() - 60, 60, buf).ok());
  EXPECT_EQ(std::string(buf, 60), data.substr(data.size() - 60));
  ASSERT_TRUE((*f)->Read(data.size() - 20000, 100, buf).ok());
  EXPECT_EQ(std::string(buf, 100), data.substr(data.size() - 20000, 100));
  EXPECT_EQ(fs.opens.load(), 1);
  // A read larger than the cache goes straight through, nothing kept.
  std::string big(100 << 10, '\0');
  ASSERT_TRUE((*f)->Read(1000, big.size(), &big[0]).ok());
  EXPECT_EQ(big, data.substr(1000, big.size()));
  EXPECT_EQ(fs.opens.load(), 2);
  EXPECT_LE((*f)->cached_bytes(), o.cache_bytes);
  // A read spanning two windows.
  ASSERT_TRUE((*f)->Read(0, 10, buf).ok());
  std::string span(40 << 10, '\0');
  ASSERT_TRUE((*f)->Read(0, span.size(), &span[0]).ok());
  EXPECT_EQ(span, data.substr(0, span.size()));
  // Past the end: Corruption, no request.
  const int before = fs.opens.load();
  EXPECT_TRUE((*f)->Read(data.size() - 5, 10, buf).IsCorruption());
  EXPECT_EQ(fs.opens.load(), before);
}

TEST(WebHdfsFile, MissingFileIsNotFoundNamingTheUri) {
  FakeHdfs fs(Files{});
  auto f = WebHdfsFile::Open("webhdfs://" + fs.address() + "/nope", {});
  ASSERT_FALSE(f.ok());
  EXPECT_TRUE(f.status().IsNotFound());
  EXPECT_NE(f.status().message().find("webhdfs://" + fs.address() + "/nope"), std::string::npos);
}

TEST(WebHdfsFile, ReaderReadsAnHBaseFixtureOverHttp) {
  const std::string local =
      test::ProjectTestDataDir() + "/hbase/snappy-fast_diff-row-crc32c-notags-3level.hfile";
  FakeHdfs fs(Files{{"/hbase/f", test::ReadFileOrDie(local)}});
  ReaderOptions ro;
  ro.webhdfs.cache_bytes = 8 << 10;  // far smaller than the file: windows come and go
  ro.webhdfs.read_ahead_bytes = 2 << 10;
  auto remote = Reader::Open("webhdfs://" + fs.address() + "/hbase/f", ro);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  auto mine = Reader::Open(local);
  ASSERT_TRUE(mine.ok());
  EXPECT_EQ((*remote)->trailer().entry_count, (*mine)->trailer().entry_count);
  auto a = (*remote)->NewIterator();
  auto b = (*mine)->NewIterator();
  uint64_t n = 0;
  for (a->SeekToFirst(), b->SeekToFirst(); b->Valid(); a->Next(), b->Next(), ++n) {
    ASSERT_TRUE(a->Valid()) << n;
    ASSERT_EQ(a->cell().key.ToString(), b->cell().key.ToString()) << n;
    ASSERT_EQ(a->cell().value.ToString(), b->cell().value.ToString()) << n;
  }
  EXPECT_FALSE(a->Valid());
  EXPECT_TRUE(a->status().ok()) << a->status().ToString();
  EXPECT_EQ(n, (*mine)->trailer().entry_count);
  EXPECT_GT(fs.opens.load(), 1);
}

}  // namespace
}  // namespace hfile
