// The model of a distributed sweep (issue 14; docs/DESIGN.md, "Between ranks"): for a shape and a
// number of ranks P, the layouts a sweep goes through (against the lower bound for layouts of whole
// index pairs), the bytes each rank sends, and the time a sweep takes from a local pass bandwidth
// and a link bandwidth: without overlap (the CPU-rank engine: a blocking all-to-all), with the
// overlap GPU ranks make (each change beside the pass before it, less that pass's first of K pieces:
// runtime/distributed/overlapped_change.hpp), with the pass after each change as well (every change,
// each pass's (K - 1) / K), with the pipelined changes as built (those into a stage of two groups
// or more, the one at a sweep's end too; the pass after runs in launches by components, the last
// after the last piece: docs/DESIGN.md, "Overlap"), and with a whole overlap, max(local, exchange),
// the bound no schedule of whole-pair layouts reaches. `--after-launches C`: the pipelined changes
// as if the pass after each ran in C launches (pieces cut finer than the components allow today),
// a what-if for the next step.
//   usage: distributed_model [--local GBS] [--link GBS] [--hosts-link GBS] [--ranks-per-host R]
//                            [--pieces K] [--after-launches C] NxD:P,P,.. ...
// Defaults: local 3000 GB/s (an H100's device copy, read + write), link 369 GB/s (NVLink between two
// H200s, NCCL send/recv one way, measured 2026-11-23), between hosts 50 GB/s (400 Gb/s InfiniBand),
// 8 ranks a host, 4 pieces (TENSORDIAG_EXCHANGE_PIECES's default).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/distributed/distributed_schedule.hpp"
#include "runtime/distributed/overlapped_change.hpp"
#include "runtime/distributed/row_exchange.hpp"

using namespace tensordiag::runtime;

namespace {

struct Shape {
  int size = 0, order = 0;
  std::vector<int> ranks;
};

Shape parse_shape(const char* text) {
  Shape shape;
  char* end = nullptr;
  shape.size = static_cast<int>(std::strtol(text, &end, 10));
  if (*end != 'x') throw std::invalid_argument(text);
  shape.order = static_cast<int>(std::strtol(end + 1, &end, 10));
  if (*end != ':') throw std::invalid_argument(text);
  while (*end == ':' || *end == ',') shape.ranks.push_back(static_cast<int>(std::strtol(end + 1, &end, 10)));
  return shape;
}

}  // namespace

int main(int argc, char** argv) {
  double local = 3000, link = 369, hosts_link = 50;
  int ranks_per_host = 8, pieces = 4, after_launches = 0;
  std::vector<Shape> shapes;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--local" && i + 1 < argc) local = std::atof(argv[++i]);
      else if (arg == "--link" && i + 1 < argc) link = std::atof(argv[++i]);
      else if (arg == "--hosts-link" && i + 1 < argc) hosts_link = std::atof(argv[++i]);
      else if (arg == "--ranks-per-host" && i + 1 < argc) ranks_per_host = std::atoi(argv[++i]);
      else if (arg == "--pieces" && i + 1 < argc) pieces = std::max(1, std::atoi(argv[++i]));
      else if (arg == "--after-launches" && i + 1 < argc) after_launches = std::max(1, std::atoi(argv[++i]));
      else shapes.push_back(parse_shape(argv[i]));
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "distributed_model: bad argument %s (want NxD:P,P,..)\n", error.what());
    return 2;
  }
  if (shapes.empty()) {
    std::fprintf(stderr, "usage: distributed_model [--local GBS] [--link GBS] [--hosts-link GBS] "
                         "[--ranks-per-host R] [--pieces K] [--after-launches C] NxD:P,P,.. ...\n");
    return 2;
  }
  std::printf("float32; local %.0f GB/s (read + write), link %.0f GB/s a rank within %d ranks, %.0f GB/s between hosts; "
              "%d pieces%s\n\n",
              local, link, ranks_per_host, hosts_link, pieces,
              after_launches > 0 ? ("; the pass after a pipelined change in " + std::to_string(after_launches) + " launches").c_str() : "");
  std::printf("| N | D | GB | P | schedule | layouts a sweep | lower bound | moved a change | GB sent a rank a sweep | "
              "local ms a sweep | exchange ms | sweep ms, no overlap | overlap of the pass before a change | "
              "passes before and after (every change) | pipelined as built | whole overlap (bound) | speed-up vs P = 1 (pass before) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Shape& shape : shapes) {
    const double bytes = std::pow(static_cast<double>(shape.size), shape.order) * 4;
    const int groups = shape.size % 2 == 0 ? shape.size - 1 : shape.size;
    const double one_rank_ms = groups * 2 * bytes / (local * 1e9) * 1e3;
    for (const int ranks : shape.ranks) {
      try {
        const DistributedSchedule schedule = distributed_schedule(shape.size, ranks, SweepSchedule::automatic);
        const double row_bytes = bytes / shape.size;
        const double moved = static_cast<double>(schedule.rows_moved_per_sweep()) * row_bytes;  // all ranks
        const double sent_per_rank = moved / ranks;
        const int stages = static_cast<int>(schedule.stages.size());
        const int per_layout = shape.size / ranks - 1;  // groups a layout of parts of N/P can hold whole
        const int bound = ranks == 1 ? 1 : (groups + per_layout - 1) / per_layout;
        const double bandwidth = ranks <= ranks_per_host ? link : hosts_link;
        const double local_ms = groups * 2 * (bytes / ranks) / (local * 1e9) * 1e3;
        const double exchange_ms = sent_per_rank / (bandwidth * 1e9) * 1e3;
        const double fraction = stages > 1 ? static_cast<double>(schedule.rows_moved_per_sweep()) / stages / shape.size : 0;
        // Each change (as many as layouts) hides behind the pass before it, less its first piece.
        const double pass_ms = 2 * (bytes / ranks) / (local * 1e9) * 1e3;
        // With the pass after it as well, a change hides behind up to (K - 1) / K of each pass: the
        // last piece leaves after the pass before ends, the first arrives before the pass after
        // can take it. A pass lends its time to one change only: where a stage holds fewer passes
        // than that (groups / layouts), the changes share them.
        const auto sweep_ms = [&](int passes_beside) {
          const double passes = std::min<double>(passes_beside, static_cast<double>(groups) / stages);
          const double beside_ms = passes * pass_ms * (pieces - 1) / pieces;
          return local_ms + exchange_ms - (stages > 1 ? stages * std::min(exchange_ms / stages, beside_ms) : 0);
        };
        const double overlapped_ms = sweep_ms(1);
        // As built: a change into a stage of two groups or more whose groups make two components or
        // more (the one at a sweep's end too, in a sweep that another follows) also hides behind the
        // pass after it, all but its last launch (which waits for the last piece): (C - 1) / C of it
        // for C launches.
        double pipelined_ms = local_ms + exchange_ms;
        for (int s = 0; stages > 1 && s < stages; ++s) {
          const DistributedStage& now = schedule.stages[static_cast<std::size_t>(s)];
          const DistributedStage& after = schedule.stages[static_cast<std::size_t>((s + 1) % stages)];
          double beside_ms = pass_ms * (pieces - 1) / pieces;
          if (after.groups.size() >= 2 && swaps_in_place(now.layout, after.layout)) {
            std::size_t launches =
                overlapped_change(now.groups.back(), now.layout, after.layout, 0, pieces, &after.groups.front()).pipelined.size();
            if (launches > 0 && after_launches > 0) launches = static_cast<std::size_t>(after_launches);
            if (launches > 0) beside_ms += pass_ms * static_cast<double>(launches - 1) / static_cast<double>(launches);
          }
          pipelined_ms -= std::min(exchange_ms / stages, beside_ms);
        }
        std::printf("| %d | %d | %.1f | %d | %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                    shape.size, shape.order, bytes / 1e9, ranks, std::string(to_string(schedule.kind)).c_str(), stages,
                    bound, fraction, sent_per_rank / 1e9, local_ms, exchange_ms, local_ms + exchange_ms, overlapped_ms,
                    sweep_ms(2), pipelined_ms, std::max(local_ms, exchange_ms), one_rank_ms / overlapped_ms);
      } catch (const std::exception& error) {
        std::printf("| %d | %d | %.1f | %d | - | - | - | - | - | - | - | - | - | - | - | - | %s |\n", shape.size, shape.order,
                    bytes / 1e9, ranks, error.what());
      }
    }
  }
  return 0;
}
