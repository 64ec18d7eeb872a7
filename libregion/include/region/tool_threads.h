// How many threads a writing tool keeps busy in this process.
//
// 2 (the default): on a machine of its own a tool overlaps an input's full verification, the
// reading and merge of its cells, and the writing (region/store_rewrite.h), so it uses both
// cores. 1: all of that on the calling thread, one step after another, with the same checks and
// the same output bytes: for a scheduler's task that was given one core (`hfile task --threads
// 1`), so that units scale with the scheduler's slots instead of contending for the cores.
//
//   SetToolThreads(1);   // before the tool runs; read by every rewrite that starts after it
#ifndef REGION_TOOL_THREADS_H_
#define REGION_TOOL_THREADS_H_

namespace hfile::region {

// 1 or 2; other values are clamped.
void SetToolThreads(int threads);
int ToolThreads();

}  // namespace hfile::region

#endif  // REGION_TOOL_THREADS_H_
