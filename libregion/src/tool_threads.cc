// ToolThreads (region/tool_threads.h).
#include "region/tool_threads.h"

#include <atomic>

namespace hfile::region {

namespace {
std::atomic<int> g_tool_threads{2};
}  // namespace

void SetToolThreads(int threads) { g_tool_threads.store(threads <= 1 ? 1 : 2); }

int ToolThreads() { return g_tool_threads.load(); }

}  // namespace hfile::region
