// An N = 2 tensor (float32, Gaussian, made in memory) over P GPU ranks of this process (NCCL),
// against the one-GPU qubit path where the tensor fits one device: 10 sweeps forced, no
// verification. Each rank makes only its own 1/P (bench/gaussian_tensor.hpp: the same values as
// the whole tensor), so tensors past one device's memory run (N = 2, D = 35 is 137 GB). Prints,
// per D and P: the sweeps' GPU time (CUDA events), off_rel after each sweep, the core's write with
// its 2 log2(P) swaps of half a slab, their bandwidth, and NCCL's send/recv bandwidth measured in
// the same run by swapping a 2 GiB buffer between ranks 0 and 1.
//   usage: gpu_qubit_ranks_bench [--ranks P,P,..] D [D ...]   (default --ranks 1,2; powers of two;
//   P = 1 is the one-GPU qubit engine, run where the tensor fits one device and the host twice)
//   Exits 77 with fewer GPUs than the most ranks asked.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "forced_sweeps.hpp"
#include "gaussian_tensor.hpp"
#include "int_list.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/distributed/gpu_qubit_ranks.hpp"
#include "runtime/distributed/host_memory.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/rank_threads.hpp"
#include "runtime/engines/device_memory.hpp"

using namespace tensordiag::runtime;

namespace {

using tensordiag::bench::sweeps_seconds;

struct RankRun {
  DistributedResult<float> result;
  double nccl_gb_per_s = 0;
};

// The P ranks' runs on the order-D tensor, each making its own 1/P, then the bandwidth probe
// (every rank with its partner rank ^ 1).
std::vector<RankRun> on_ranks(int order, int ranks) {
  std::vector<int> devices(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) devices[static_cast<std::size_t>(r)] = r;
  return on_rank_threads(nccl_ranks_in_process(devices), [&](DeviceCommunicator& comm) {
    const std::size_t part = (std::size_t{1} << order) / static_cast<std::size_t>(ranks);
    SlabLayout layout;
    for (int r = 0; r < ranks; ++r) layout.rows.push_back({r});
    Slab<float> slab{order, 2, Layout::c_order, comm.rank(), layout, std::vector<float>(part)};
    slab.row_parts = ranks / 2;
    tensordiag::bench::gaussian_entries(slab.values.data(), static_cast<std::size_t>(comm.rank()) * part, part);
    RankRun run{run_gpu_qubit_ranks(std::move(slab), tensordiag::codegen::lower_builtin_rule("max_diag"),
                                    tensordiag::bench::forced_sweep_settings(10),
                                    comm)};
    constexpr std::size_t probe = std::size_t{2} << 30;
    DeviceBuffer<unsigned char> buffer(probe);
    comm.swap_device_rows({buffer.data()}, probe, comm.rank() ^ 1);  // warm-up
    comm.wait();
    const Stopwatch clock;
    comm.swap_device_rows({buffer.data()}, probe, comm.rank() ^ 1);
    comm.wait();
    run.nccl_gb_per_s = static_cast<double>(probe) / 1e9 / clock.seconds();
    return run;
  });
}

void print_history(const char* label, const std::vector<SweepRecord>& history) {
  std::printf("  %s off_rel:", label);
  for (const auto& record : history) std::printf(" %.12f", record.off_rel);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<int> counts{1, 2};
  std::vector<int> orders;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--ranks" && i + 1 < argc) {
      counts = tensordiag::bench::int_list(argv[++i]);
    } else {
      orders.push_back(std::stoi(arg));
    }
  }
  const int most = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  if (orders.empty() || most < 1 ||
      std::any_of(counts.begin(), counts.end(), [](int p) { return p < 1 || (p & (p - 1)) != 0; })) {
    std::fprintf(stderr, "usage: gpu_qubit_ranks_bench [--ranks P,P,..] D [D ...]   (P powers of two)\n");
    return 2;
  }
  if (!cuda_device(most - 1)) {
    std::printf("gpu_qubit_ranks_bench: fewer than %d CUDA devices\n", most);
    return 77;
  }
  std::printf("device: %s (x%d), float32, N = 2, 10 sweeps\n", cuda_device(0)->name.c_str(), most);
  std::printf("%-4s %-8s %-3s %-10s %-10s %-10s %-11s %-10s %-10s %s\n", "D", "GB", "P", "gpu_s_10", "total_s",
              "core_xch_s", "GB_swapped", "GB/s_xch", "nccl_GB/s", "engine");
  for (const int order : orders) {
    const double bytes = static_cast<double>(std::size_t{4} << order);
    const double gb = bytes / 1e9;
    // One GPU where the tensor fits it with the qubit path's buffers, and the host holds the input
    // and the core that comes back (the ranks' parts are made after it is let go).
    const auto host = available_host_memory();
    const bool one_asked = std::find(counts.begin(), counts.end(), 1) != counts.end();
    const bool one_fits =
        !current_device_memory_refusal(bytes * 1.05) && host && 2.2 * bytes < static_cast<double>(*host);
    if (one_asked && one_fits) {
      HostTensor<float> tensor(order, 2, Layout::c_order);
      tensordiag::bench::gaussian_entries(tensor.data(), 0, tensor.count());
      Options options = tensordiag::bench::forced_sweeps(10);
      options.backend = Backend::cuda;
      const Result<float> one = diagonalize(tensor, options);
      std::printf("%-4d %-8.2f %-3s %-10.3f %-10.3f %-10s %-11s %-10s %-10s %s\n", order, gb, "1",
                  sweeps_seconds(one.history), one.timings.total_seconds, "-", "-", "-", "-", one.engine.c_str());
      print_history("1 GPU", one.history);
    } else if (one_asked) {
      std::printf("%-4d %-8.2f %-3s not run: the input and its core do not fit this host's memory with one device\n",
                  order, gb, "1");
    }
    for (const int ranks : counts) {
      if (ranks == 1) continue;  // the one-GPU engine, above
      if (current_device_memory_refusal(bytes / ranks * 1.05)) {
        std::printf("%-4d %-8.2f %-3d not run: a rank's 1/%d does not fit one device\n", order, gb, ranks, ranks);
        continue;
      }
      std::vector<RankRun> runs;
      try {
        runs = on_ranks(order, ranks);
      } catch (const std::exception& e) {
        std::printf("%-4d %-8.2f %-3d failed: %s\n", order, gb, ranks, e.what());
        continue;
      }
      const RankRun& first = runs.front();
      const auto& d = first.result.distribution;
      const double swapped = static_cast<double>(d.bytes_sent) / 1e9;
      std::printf("%-4d %-8.2f %-3d %-10.3f %-10.3f %-10.3f %-11.2f %-10.1f %-10.1f %s\n", order, gb, ranks,
                  sweeps_seconds(first.result.run.history), first.result.run.timings.total_seconds, d.exchange_seconds,
                  swapped, d.exchange_seconds > 0 ? swapped / d.exchange_seconds : 0.0, first.nccl_gb_per_s,
                  "cuda_distributed (qubit ranks)");
      print_history((std::to_string(ranks) + " GPUs").c_str(), first.result.run.history);
    }
  }
  return 0;
}
