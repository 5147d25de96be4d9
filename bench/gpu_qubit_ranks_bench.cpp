// An N = 2 tensor (float32, Gaussian, made in memory) over two GPU ranks of this process (NCCL),
// against the one-GPU qubit path where the tensor fits one device: 10 sweeps forced, no
// verification. Each rank makes only its own half (bench/gaussian_tensor.hpp: the same values as
// the whole tensor), so tensors past one device's memory run (N = 2, D = 35 is 137 GB). Prints,
// per D: the sweeps' GPU time (CUDA events), off_rel after each sweep, the core's write with its
// two swaps of half a slab, their bandwidth, and NCCL's send/recv bandwidth measured in the same
// run by swapping a 2 GiB buffer.
//   usage: gpu_qubit_ranks_bench D [D ...]      Exits 77 with fewer than two GPUs.
#include <cstdio>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "gaussian_tensor.hpp"
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

RunSettings ten_sweeps() {
  RunSettings settings;
  settings.stop = StopCriteria{10, 0.0, 0.0};
  settings.verify = false;
  return settings;
}

double gpu_seconds(const std::vector<SweepRecord>& history) {
  double total = 0;
  for (const auto& record : history) total += record.seconds;
  return total;
}

struct RankRun {
  DistributedResult<float> result;
  double nccl_gb_per_s = 0;
};

// Both ranks' runs on the order-D tensor, each making its own half, then the bandwidth probe.
std::vector<RankRun> on_two_ranks(int order) {
  return on_rank_threads(nccl_ranks_in_process({0, 1}), [&](DeviceCommunicator& comm) {
    const std::size_t half = std::size_t{1} << (order - 1);
    Slab<float> slab{order, 2, Layout::c_order, comm.rank(), SlabLayout{{{0}, {1}}}, std::vector<float>(half)};
    tensordiag::bench::gaussian_entries(slab.values.data(), static_cast<std::size_t>(comm.rank()) * half, half);
    RankRun run{run_gpu_qubit_ranks(std::move(slab), tensordiag::codegen::lower_builtin_rule("max_diag"), ten_sweeps(),
                                    comm)};
    constexpr std::size_t probe = std::size_t{2} << 30;
    DeviceBuffer<unsigned char> buffer(probe);
    comm.swap_device_rows({buffer.data()}, probe, 1 - comm.rank());  // warm-up
    comm.wait();
    const Stopwatch clock;
    comm.swap_device_rows({buffer.data()}, probe, 1 - comm.rank());
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
  if (argc < 2) {
    std::fprintf(stderr, "usage: gpu_qubit_ranks_bench D [D ...]\n");
    return 2;
  }
  if (!cuda_device(1)) {
    std::printf("gpu_qubit_ranks_bench: fewer than two CUDA devices\n");
    return 77;
  }
  std::printf("device: %s (x2), float32, N = 2, 10 sweeps\n", cuda_device(0)->name.c_str());
  std::printf("%-4s %-8s %-3s %-10s %-10s %-10s %-11s %-10s %-10s %s\n", "D", "GB", "P", "gpu_s_10", "total_s",
              "core_xch_s", "GB_swapped", "GB/s_xch", "nccl_GB/s", "engine");
  for (int i = 1; i < argc; ++i) {
    const int order = std::stoi(argv[i]);
    const double gb = static_cast<double>(std::size_t{4} << order) / 1e9;
    // One GPU where the tensor fits it with the qubit path's buffers, and the host holds the input
    // and the core that comes back (the two ranks' halves are made after it is let go).
    const double bytes = static_cast<double>(std::size_t{4} << order);
    const auto host = available_host_memory();
    if (!current_device_memory_refusal(bytes * 1.05) && host && 2.2 * bytes < static_cast<double>(*host)) {
      HostTensor<float> tensor(order, 2, Layout::c_order);
      tensordiag::bench::gaussian_entries(tensor.data(), 0, tensor.count());
      Options options;
      options.backend = Backend::cuda;
      options.max_sweeps = 10;
      options.tol = 0;
      options.stall_tol = 0;
      options.verify = false;
      const Result<float> one = diagonalize(tensor, options);
      std::printf("%-4d %-8.2f %-3s %-10.3f %-10.3f %-10s %-11s %-10s %-10s %s\n", order, gb, "1",
                  gpu_seconds(one.history), one.timings.total_seconds, "-", "-", "-", "-", one.engine.c_str());
      print_history("1 GPU", one.history);
    } else {
      std::printf("%-4d %-8.2f %-3s not run: the input and its core do not fit this host's memory with one device\n",
                  order, gb, "1");
    }
    const std::vector<RankRun> ranks = on_two_ranks(order);
    const RankRun& first = ranks.front();
    const auto& d = first.result.distribution;
    const double swapped = static_cast<double>(d.bytes_sent) / 1e9;
    std::printf("%-4d %-8.2f %-3s %-10.3f %-10.3f %-10.3f %-11.2f %-10.1f %-10.1f %s\n", order, gb, "2",
                gpu_seconds(first.result.run.history), first.result.run.timings.total_seconds, d.exchange_seconds,
                swapped, d.exchange_seconds > 0 ? swapped / d.exchange_seconds : 0.0, first.nccl_gb_per_s,
                "cuda_distributed (qubit ranks)");
    print_history("2 GPUs", first.result.run.history);
  }
  return 0;
}
