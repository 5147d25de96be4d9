// GPU ranks (issue 14) against one GPU on the same tensor: a Gaussian float32 tensor made in memory,
// 10 sweeps forced without verification, first on one GPU (the general engine), then spread over
// P = 1, 2, .. GPU ranks of this process (NCCL, a thread a rank). For each P: the sweeps' GPU time
// (CUDA events, rank 0), rank 0's time in exchanges and the bytes it sent, the exchange bandwidth
// that gives, the parallel efficiency against the one-GPU engine, and the model's time with and
// without overlap: local = the P = 1 ranks' sweep time / P, exchange = bytes a rank sends at the
// NCCL send/recv bandwidth measured in the run. `--eta E` runs every one of them with the pivot check.
//   usage: gpu_ranks_bench [--ranks P,P,..] [--eta E] DxN [DxN ...]   Exits 77 with fewer GPUs than asked.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "gaussian_tensor.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/rank_threads.hpp"

using namespace tensordiag::runtime;

namespace {

double eta = 0;  // --eta

Options ten_sweeps() {
  Options options;
  options.eta = eta;
  options.max_sweeps = 10;
  options.tol = 0;
  options.stall_tol = 0;
  options.verify = false;
  return options;
}

double gpu_seconds(const std::vector<SweepRecord>& history) {
  double total = 0;
  for (const auto& record : history) total += record.seconds;
  return total;
}

// Rank 0's result of the run on `ranks` GPU ranks (devices 0..ranks-1).
DistributedResult<float> on_ranks(const HostTensor<float>& tensor, int ranks) {
  std::vector<int> devices(static_cast<std::size_t>(ranks));
  std::iota(devices.begin(), devices.end(), 0);
  auto results = on_rank_threads(nccl_ranks_in_process(devices),
                                 [&](DeviceCommunicator& comm) { return diagonalize_distributed(tensor, ten_sweeps(), comm); });
  return std::move(results.front());
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line as it is measured (large shapes take minutes)
  std::vector<int> counts{1, 2};
  std::vector<std::string> shapes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--ranks" && i + 1 < argc) {
      counts.clear();
      const std::string list = argv[++i];
      for (std::size_t at = 0; at < list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        counts.push_back(std::stoi(list.substr(at, comma - at)));
        at = comma + 1;
      }
    } else if (arg == "--eta" && i + 1 < argc) {
      eta = std::stod(argv[++i]);
    } else {
      shapes.push_back(arg);
    }
  }
  if (shapes.empty()) {
    std::fprintf(stderr, "usage: gpu_ranks_bench [--ranks P,P,..] [--eta E] DxN [DxN ...]\n");
    return 2;
  }
  int devices = 0;
  while (cuda_device(devices)) ++devices;
  if (devices < *std::max_element(counts.begin(), counts.end())) {
    std::printf("gpu_ranks_bench: %d CUDA devices, fewer than the ranks asked\n", devices);
    return 77;
  }
  std::printf("device: %s (x%d), eta %g\n", cuda_device(0)->name.c_str(), devices, eta);
  std::printf("%-7s %-7s %-5s %-10s %-10s %-8s %-11s %-10s %-10s %-9s %-9s %-9s %s\n", "DxN", "GB", "P", "gpu_s_10",
              "exch_s", "stages", "GB_sent", "GB/s_exch", "eff_vs_1", "model_s", "model_ov", "of_model", "engine");
  for (const std::string& shape : shapes) {
    const int order = std::stoi(shape.substr(0, shape.find('x')));
    const int size = std::stoi(shape.substr(shape.find('x') + 1));
    const HostTensor<float> tensor = tensordiag::bench::gaussian_tensor(order, size);
    const double gb = static_cast<double>(tensor.count()) * sizeof(float) / 1e9;
    Options one = ten_sweeps();
    one.backend = Backend::cuda;
    const Result<float> single = diagonalize(tensor, one);
    const double t1 = gpu_seconds(single.history);
    std::printf("%-7s %-7.2f %-5s %-10.3f %-10s %-8s %-11s %-10s %-10s %-9s %-9s %-9s %s (%s)\n", shape.c_str(), gb, "-",
                t1, "-", "-", "-", "-", "1.00", "-", "-", "-", single.engine.c_str(), single.schedule.c_str());
    double local_one = 0;  // the sweeps' time of one GPU rank: the local passes, no exchange
    for (const int ranks : counts) {
      const DistributedResult<float> result = on_ranks(tensor, ranks);
      const double t = gpu_seconds(result.run.history);
      if (ranks == 1) local_one = t;
      const auto& d = result.distribution;
      const double sent = static_cast<double>(d.bytes_sent) / 1e9;
      const double bandwidth = d.exchange_seconds > 0 ? sent / d.exchange_seconds : 0;
      const double local = local_one / ranks;
      const double exchange = d.exchange_seconds;
      const double model = local + exchange, model_overlap = std::max(local, exchange);
      std::printf("%-7s %-7.2f %-5d %-10.3f %-10.3f %-8d %-11.2f %-10.1f %-10.2f %-9.3f %-9.3f %-9.2f %s\n",
                  shape.c_str(), gb, ranks, t, d.exchange_seconds, d.stages_per_sweep, sent, bandwidth,
                  t1 / (ranks * t), model, model_overlap, t / model_overlap, result.run.engine.c_str());
    }
  }
  return 0;
}
