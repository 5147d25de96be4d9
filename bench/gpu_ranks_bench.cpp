// GPU ranks (issue 14) against one GPU on the same tensor: a Gaussian float32 tensor made in memory,
// 10 sweeps forced without verification, first on one GPU (the general engine), then spread over
// P = 1, 2, .. GPU ranks of this process (NCCL, a thread a rank). For each P: the sweeps' GPU time
// (CUDA events, rank 0), rank 0's time in exchanges and the bytes it sent, the exchange bandwidth
// that gives, the parallel efficiency against the one-GPU engine, and the model's time with and
// without overlap: local = the P = 1 ranks' sweep time / P, exchange = bytes a rank sends at the
// NCCL send/recv bandwidth measured in the run; an overlapped change (TENSORDIAG_EXCHANGE_OVERLAP)
// counts from its first row's leaving to its last row's arrival. `--eta E` runs every one of them with the pivot check.
// `--made-on-ranks`: no one-GPU run and no whole tensor on the host; each rank makes its own rows
// (for tensors past the host's memory twice over, N = 8, D = 12 is 275 GB), and prints its off_rel.
// `--settings "V=x,W=y;V=z"` runs each P > 1 once for each ';'-separated list of environment
// settings (TENSORDIAG_EXCHANGE_PIECES: the overlapped changes; TENSORDIAG_EXCHANGE_STAGING), with
// or without --made-on-ranks. NCCL's own variables are read once a process: set them outside.
//   usage: gpu_ranks_bench [--ranks P,P,..] [--settings S;S;..] [--eta E] [--made-on-ranks] DxN [DxN ...]
//   Exits 77 with fewer GPUs than asked.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <numeric>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "forced_sweeps.hpp"
#include "gaussian_tensor.hpp"
#include "int_list.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/distributed/distributed_schedule.hpp"
#include "runtime/distributed/gpu_slab_engine.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/rank_threads.hpp"

using namespace tensordiag::runtime;

namespace {

double eta = 0;             // --eta
bool made_on_ranks = false;  // --made-on-ranks

using tensordiag::bench::sweeps_seconds;

Options ten_sweeps() {
  Options options = tensordiag::bench::forced_sweeps(10);
  options.eta = eta;
  return options;
}

// Rank 0's result of the run on `ranks` GPU ranks (devices 0..ranks-1).
DistributedResult<float> on_ranks(const HostTensor<float>& tensor, int ranks) {
  std::vector<int> devices(static_cast<std::size_t>(ranks));
  std::iota(devices.begin(), devices.end(), 0);
  auto results = on_rank_threads(nccl_ranks_in_process(devices),
                                 [&](DeviceCommunicator& comm) { return diagonalize_distributed(tensor, ten_sweeps(), comm); });
  return std::move(results.front());
}

// Rank 0's result on `ranks` GPU ranks, each making its own rows of the order-D Gaussian tensor
// (the same values as gaussian_tensor's): no whole tensor in host memory, so tensors past the
// host's memory twice over run (N = 8, D = 12 is 275 GB).
DistributedResult<float> on_ranks_made_there(int order, int size, int ranks) {
  std::vector<int> devices(static_cast<std::size_t>(ranks));
  std::iota(devices.begin(), devices.end(), 0);
  const DistributedSchedule schedule = distributed_schedule(size, ranks, SweepSchedule::automatic);
  RunSettings settings = tensordiag::bench::forced_sweep_settings(10);
  settings.eta = eta;
  auto results = on_rank_threads(nccl_ranks_in_process(devices), [&](DeviceCommunicator& comm) {
    Slab<float> slab{order, size, Layout::c_order, comm.rank(), schedule.stages.front().layout, {}};
    slab.values.resize(schedule.most_rows() * slab.row_length());
    for (std::size_t t = 0; t < slab.rows().size(); ++t)
      tensordiag::bench::gaussian_entries(slab.row(t), static_cast<std::size_t>(slab.rows()[t]) * slab.row_length(),
                                          slab.row_length());
    return run_gpu_slab_engine(std::move(slab), schedule, tensordiag::codegen::lower_builtin_rule("max_diag"),
                               settings, comm);
  });
  return std::move(results.front());
}

// Sets each VARIABLE=VALUE of the comma-separated list.
void apply_settings(const std::string& list) {
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, end - at);
    const std::size_t equals = item.find('=');
    if (equals != std::string::npos) setenv(item.substr(0, equals).c_str(), item.substr(equals + 1).c_str(), 1);
    at = end + 1;
  }
}

// The settings a run on `ranks` ranks takes in turn: each of `settings` where P > 1, else the
// environment as it is.
std::vector<std::string> settings_for(int ranks, const std::vector<std::string>& settings) {
  return ranks > 1 && !settings.empty() ? settings : std::vector<std::string>{""};
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line as it is measured (large shapes take minutes)
  std::vector<int> counts{1, 2};
  std::vector<std::string> settings;  // empty: the environment as it is
  std::vector<std::string> shapes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--ranks" && i + 1 < argc) {
      counts = tensordiag::bench::int_list(argv[++i]);
    } else if (arg == "--settings" && i + 1 < argc) {
      std::string list = argv[++i];
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t end = std::min(list.find(';', at), list.size());
        settings.push_back(list.substr(at, end - at));
        at = end + 1;
      }
    } else if (arg == "--made-on-ranks") {
      made_on_ranks = true;
    } else if (arg == "--eta" && i + 1 < argc) {
      eta = std::stod(argv[++i]);
    } else {
      shapes.push_back(arg);
    }
  }
  if (shapes.empty()) {
    std::fprintf(stderr,
                 "usage: gpu_ranks_bench [--ranks P,P,..] [--settings S;S;..] [--eta E] [--made-on-ranks] DxN [DxN ...]\n");
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
    const double gb = static_cast<double>(entry_count(order, size)) * sizeof(float) / 1e9;
    if (made_on_ranks) {
      for (const int ranks : counts)
        for (const std::string& setting : settings_for(ranks, settings)) {
          apply_settings(setting);
          DistributedResult<float> result;
          try {
            result = on_ranks_made_there(order, size, ranks);
          } catch (const std::exception& e) {
            std::printf("%-7s %-7.2f %-5d failed: %s\n", shape.c_str(), gb, ranks, e.what());
            continue;
          }
          const auto& d = result.distribution;
          const double sent = static_cast<double>(d.bytes_sent) / 1e9;
          std::printf("%-7s %-7.2f %-5d %-10.3f %-10.3f %-8d %-11.2f %-10.1f %-10s %-9s %-9s %-9s %s (made on the ranks; "
                      "%d changes overlapped, %d pipelined; %s)\n",
                      shape.c_str(), gb, ranks, sweeps_seconds(result.run.history), d.exchange_seconds,
                      d.stages_per_sweep, sent, d.exchange_seconds > 0 ? sent / d.exchange_seconds : 0.0, "-", "-", "-",
                      "-", "cuda_distributed", d.overlapped_changes, d.pipelined_changes,
                      setting.empty() ? "default" : setting.c_str());
          std::printf("  off_rel:");
          for (const auto& record : result.run.history) std::printf(" %.9f", record.off_rel);
          std::printf("\n");
        }
      continue;
    }
    const HostTensor<float> tensor = tensordiag::bench::gaussian_tensor(order, size);
    Options one = ten_sweeps();
    one.backend = Backend::cuda;
    const Result<float> single = diagonalize(tensor, one);
    const double t1 = sweeps_seconds(single.history);
    std::printf("%-7s %-7.2f %-5s %-10.3f %-10s %-8s %-11s %-10s %-10s %-9s %-9s %-9s %s (%s)\n", shape.c_str(), gb, "-",
                t1, "-", "-", "-", "-", "1.00", "-", "-", "-", single.engine.c_str(), single.schedule.c_str());
    double local_one = 0;  // the sweeps' time of one GPU rank: the local passes, no exchange
    for (const int ranks : counts) {
      for (const std::string& setting : settings_for(ranks, settings)) {
        apply_settings(setting);
        DistributedResult<float> result;
        try {
          result = on_ranks(tensor, ranks);
        } catch (const std::exception& e) {
          std::printf("%-7s %-7.2f %-5d failed: %s\n", shape.c_str(), gb, ranks, e.what());
          continue;
        }
        const double t = sweeps_seconds(result.run.history);
        if (ranks == 1) local_one = t;
        const auto& d = result.distribution;
        const double sent = static_cast<double>(d.bytes_sent) / 1e9;
        const double bandwidth = d.exchange_seconds > 0 ? sent / d.exchange_seconds : 0;
        const double local = local_one / ranks;
        const double exchange = d.exchange_seconds;
        const double model = local + exchange, model_overlap = std::max(local, exchange);
        std::printf("%-7s %-7.2f %-5d %-10.3f %-10.3f %-8d %-11.2f %-10.1f %-10.2f %-9.3f %-9.3f %-9.2f %s (%d changes overlapped, %d pipelined; %s)\n",
                    shape.c_str(), gb, ranks, t, d.exchange_seconds, d.stages_per_sweep, sent, bandwidth,
                    t1 / (ranks * t), model, model_overlap, t / model_overlap, result.run.engine.c_str(),
                    d.overlapped_changes, d.pipelined_changes, setting.empty() ? "default" : setting.c_str());
      }
    }
  }
  return 0;
}
