#include "cli/diagonalize_distributed.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/lost_rank_watchdog.hpp"
#include "cli/progress.hpp"
#include "cli/stop_summary.hpp"
#include "runtime/algorithm/report.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_rows.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/distributed/distribution_report.hpp"
#include "runtime/distributed/launcher_communicator.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/rank_threads.hpp"

namespace tensordiag::cli {

namespace {

// One rank's run. `watch_for_lost_ranks`: the process's rank 0 watches for the signal a launcher
// sends when another process died (one watchdog a process).
template <class T>
std::string run_typed(const DiagonalizeArguments& arguments, const runtime::TensorShape& shape,
                      runtime::Communicator& comm, bool watch_for_lost_ranks) {
  const bool leader = comm.rank() == 0;
  runtime::Options options = run_options(arguments);
  options.on_sweep = sweep_progress(arguments.quiet || !leader, options.max_sweeps);
  // Rank 0 makes the output directory and the staged core file's name; the others write into it.
  std::optional<AtomicOutput> output;
  std::string core_path;
  std::optional<LostRankWatchdog> watchdog;
  if (watch_for_lost_ranks)
    watchdog.emplace(comm.rank(), [&output] {
      if (output) output->discard_now();
    });
  runtime::on_every_rank(comm, [&] {
    if (!leader) return;
    output.emplace(arguments.out);
    core_path = output->stage("core.npy").string();
  });
  comm.broadcast(core_path, 0);

  const runtime::DistributedResult<T> result = runtime::diagonalize_distributed<T>(arguments.input, options, comm);
  const runtime::Slab<T>& core = result.core;
  runtime::on_every_rank(comm, [&] {
    if (leader) runtime::create_npy_tensor_file<T>(core_path, core.order, core.size, core.layout);
  });
  runtime::on_every_rank(comm, [&] {
    runtime::write_npy_rows(core_path, core.order, core.size, core.layout, core.rows(), core.values.data(),
                            core.row_parts);
  });
  if (!leader) return {};
  print_notes(result.run.notes);
  for (std::size_t n = 0; n < result.run.factors.size(); ++n)
    runtime::write_matrix(output->stage("factor_" + std::to_string(n + 1) + ".npy"), result.run.factors[n]);
  const runtime::ReportInput input{arguments.input, shape.dtype, core.order, core.size, core.layout};
  nlohmann::ordered_json report = runtime::make_report(result.run, options, input);
  report["distributed"] = runtime::distribution_report(result.distribution);
  if (result.distribution.orthogonality_error) report["orthogonality_error"] = *result.distribution.orthogonality_error;
  output->stage_text("report.json", report.dump(2) + "\n");
  output->commit();
  std::string summary = stop_summary(result.run);
  char errors[96];
  if (result.distribution.orthogonality_error) {
    std::snprintf(errors, sizeof errors, "; orthogonality error %.3e", *result.distribution.orthogonality_error);
    summary += errors;
  }
  return summary + "; " + std::to_string(comm.size()) + (comm.size() == 1 ? " rank" : " ranks");
}

// The rank's whole run: the shape, then the run in the dtype asked. Returns rank 0's summary.
std::string run_rank(const DiagonalizeArguments& arguments, runtime::Communicator& comm, bool watch_for_lost_ranks,
                     int& order) {
  runtime::TensorShape shape;
  runtime::on_every_rank(comm, [&] { shape = runtime::read_tensor_shape(arguments.input); });
  order = shape.order;
  const runtime::Dtype dtype = arguments.dtype.empty() ? shape.dtype : runtime::parse_dtype(arguments.dtype);
  if (runtime::is_complex(dtype))
    throw user_error(arguments.input + ": " + std::string(runtime::to_string(dtype)) +
                              ": the distributed engine takes real tensors; run complex tensors on one CPU");
  return dtype == runtime::Dtype::float32 ? run_typed<float>(arguments, shape, comm, watch_for_lost_ranks)
                                          : run_typed<double>(arguments, shape, comm, watch_for_lost_ranks);
}

// --devices: "all", or CUDA indices separated by commas.
std::vector<int> device_list(const std::string& text) {
  std::vector<int> devices;
  if (text == "all") {
    for (int index = 0; runtime::cuda_device(index); ++index) devices.push_back(index);
    if (devices.empty()) throw user_error("--devices all: " + runtime::cuda_unavailable_reason());
    return devices;
  }
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 4)
      throw user_error("--devices takes CUDA device indices separated by commas (0,1) or all, not '" + text + "'");
    devices.push_back(std::stoi(item));
    at = comma + 1;
  }
  return devices;
}

// GPU ranks in this process, a thread each (rank 0's watches for lost ranks).
std::string run_on_devices(const DiagonalizeArguments& arguments, int& order) {
  if (runtime::started_by_mpi_launcher())
    throw user_error("--devices runs every rank in this process; under mpirun use --distributed --backend cuda "
                     "(one GPU a process)");
  if (arguments.backend == "cpu") throw user_error("--devices runs GPU ranks: --backend cpu contradicts it");
  const auto ranks = runtime::nccl_ranks_in_process(device_list(arguments.devices));
  std::vector<int> orders(ranks.size());
  const std::vector<std::string> summaries = runtime::on_rank_threads(ranks, [&](runtime::DeviceCommunicator& comm) {
    const bool leader = comm.rank() == 0;
    return run_rank(arguments, comm, leader, orders[static_cast<std::size_t>(comm.rank())]);
  });
  order = orders.front();
  return summaries.front();
}

}  // namespace

int run_diagonalize_distributed(const DiagonalizeArguments& arguments) {
  if (arguments.batch) throw user_error("--distributed takes one tensor, not a --batch");
  int order = 0;
  std::string summary;
  bool leader = true;
  if (!arguments.devices.empty()) {
    summary = run_on_devices(arguments, order);
  } else {
    std::unique_ptr<runtime::Communicator> comm = runtime::launcher_communicator();
    // --backend cuda: one GPU rank a process, NCCL joined through the launcher's ranks.
    if (arguments.backend == "cuda") comm = runtime::nccl_rank_over(std::move(comm));
    leader = comm->rank() == 0;
    summary = run_rank(arguments, *comm, true, order);
  }
  if (leader && !arguments.quiet)
    std::printf("%s\nwrote core.npy, factor_1.npy .. factor_%d.npy and report.json in %s\n", summary.c_str(), order,
                arguments.out.c_str());
  return 0;
}

}  // namespace tensordiag::cli
