// hdfs:// and webhdfs:// URIs -> the HTTP server that answers for them (WebHdfsOptions::address,
// $HFILE_WEBHDFS, $HADOOP_CONF_DIR/hdfs-site.xml, Hadoop's default port, in that order).
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "hfile/webhdfs.h"

namespace hfile {
namespace {

constexpr const char* kDefaultHttpPort = "9870";  // dfs.namenode.http-address, Hadoop 3

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The <value> of the <property> named `name` in a Hadoop configuration file (the last one wins,
// as in Hadoop's Configuration); nullopt when absent. Enough XML for Hadoop's flat files:
// no entities, no XInclude.
std::optional<std::string> ConfValue(const std::string& xml, const std::string& name) {
  std::optional<std::string> found;
  for (size_t p = 0; (p = xml.find("<property", p)) != std::string::npos;) {
    const size_t end = xml.find("</property>", p);
    if (end == std::string::npos) break;
    const std::string prop = xml.substr(p, end - p);
    p = end;
    auto tag = [&](const char* t) -> std::optional<std::string> {
      const std::string open = fmt::format("<{}>", t), close = fmt::format("</{}>", t);
      const size_t a = prop.find(open);
      const size_t b = a == std::string::npos ? a : prop.find(close, a);
      if (b == std::string::npos) return std::nullopt;
      return Trim(prop.substr(a + open.size(), b - a - open.size()));
    };
    if (tag("name") == name) found = tag("value");
  }
  return found;
}

// "%2C" -> ","; a malformed escape is kept as it is (HDFS names may hold '%').
std::string PercentDecode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    auto hex = [](char c) {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// HOST[:PORT] -> HOST.
std::string HostOf(const std::string& authority) {
  if (!authority.empty() && authority[0] == '[') {
    return authority.substr(0, authority.find(']') + 1);  // [IPv6]:port
  }
  return authority.substr(0, authority.find(':'));
}

}  // namespace

bool IsHdfsUri(const std::string& path) {
  return path.rfind("hdfs://", 0) == 0 || path.rfind("webhdfs://", 0) == 0;
}

Result<HdfsLocation> ResolveHdfsUri(const std::string& uri, const WebHdfsOptions& options) {
  const size_t colon = uri.find("://");
  if (colon == std::string::npos || !IsHdfsUri(uri)) {
    return Status::InvalidArgument(uri, "not an hdfs:// or webhdfs:// URI");
  }
  const std::string scheme = uri.substr(0, colon);
  const std::string rest = uri.substr(colon + 3);
  const size_t slash = rest.find('/');
  const std::string authority = rest.substr(0, slash);
  std::string path = slash == std::string::npos ? "/" : rest.substr(slash);
  if (path.find_first_of("?#") != std::string::npos) {
    return Status::InvalidArgument(uri, "an HDFS URI has no query or fragment");
  }
  HdfsLocation loc;
  loc.path = PercentDecode(path);
  if (scheme == "webhdfs") {
    if (authority.empty()) {
      return Status::InvalidArgument(uri, "a webhdfs:// URI names the NameNode's HTTP address "
                                          "(webhdfs://HOST:PORT/path)");
    }
    loc.http_address = authority.find(':') == std::string::npos
                           ? authority + ":" + kDefaultHttpPort
                           : authority;
    loc.where = "the webhdfs:// URI";
    return loc;
  }
  if (!options.address.empty()) {
    loc.http_address = options.address;
    loc.where = "--webhdfs";
    return loc;
  }
  if (const char* env = std::getenv("HFILE_WEBHDFS"); env && *env) {
    loc.http_address = env;
    loc.where = "$HFILE_WEBHDFS";
    return loc;
  }
  const std::string host = HostOf(authority);
  if (const char* conf = std::getenv("HADOOP_CONF_DIR"); conf && *conf) {
    const std::string file = std::string(conf) + "/hdfs-site.xml";
    std::ifstream in(file);
    if (in) {
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string xml = ss.str();
      std::optional<std::string> v;
      std::string key;
      if (!host.empty()) v = ConfValue(xml, key = "dfs.namenode.http-address." + host);
      if (!v) v = ConfValue(xml, key = "dfs.namenode.http-address");
      if (v && !v->empty()) {
        // A wildcard bind address means "this NameNode's own host".
        std::string addr = *v;
        const std::string bind = HostOf(addr);
        if ((bind == "0.0.0.0" || bind.empty()) && !host.empty()) {
          addr = host + addr.substr(bind.size());
        }
        loc.http_address = addr;
        loc.where = fmt::format("{} in {}", key, file);
        return loc;
      }
    }
  }
  if (host.empty()) {
    return Status::InvalidArgument(
        uri, "no NameNode HTTP address: give --webhdfs HOST:PORT, set HFILE_WEBHDFS, or set "
             "dfs.namenode.http-address in $HADOOP_CONF_DIR/hdfs-site.xml");
  }
  loc.http_address = host + ":" + kDefaultHttpPort;
  loc.where = fmt::format("the URI's host and Hadoop's default HTTP port {}", kDefaultHttpPort);
  return loc;
}

}  // namespace hfile
