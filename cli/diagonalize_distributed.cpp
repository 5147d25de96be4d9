#include "cli/diagonalize_distributed.hpp"

#include <cstdio>
#include <memory>
#include <optional>

#include "cli/atomic_output.hpp"
#include "cli/lost_rank_watchdog.hpp"
#include "cli/progress.hpp"
#include "cli/stop_summary.hpp"
#include "runtime/algorithm/report.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_rows.hpp"
#include "runtime/distributed/launcher_communicator.hpp"

namespace tensordiag::cli {

namespace {

nlohmann::ordered_json distribution_report(const runtime::DistributionFigures& figures) {
  nlohmann::ordered_json report = {{"ranks", figures.ranks},
                                   {"transport", figures.transport},
                                   {"layout", figures.layout},
                                   {"stages_per_sweep", figures.stages_per_sweep},
                                   {"bytes_per_sweep", figures.bytes_per_sweep},
                                   {"rank0_bytes_sent", figures.bytes_sent},
                                   {"rank0_exchange_seconds", figures.exchange_seconds}};
  return report;
}

template <class T>
std::string run_typed(const DiagonalizeArguments& arguments, const runtime::TensorShape& shape,
                      runtime::Communicator& comm) {
  const bool leader = comm.rank() == 0;
  runtime::Options options = run_options(arguments);
  options.on_sweep = sweep_progress(arguments.quiet || !leader, options.max_sweeps);
  // Rank 0 makes the output directory and the staged core file's name; the others write into it.
  std::optional<AtomicOutput> output;
  std::string core_path;
  const LostRankWatchdog watchdog(comm.rank(), [&output] {
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
    runtime::write_npy_rows(core_path, core.order, core.size, core.layout, core.rows(), core.values.data());
  });
  if (!leader) return {};
  print_notes(result.run.notes);
  for (std::size_t n = 0; n < result.run.factors.size(); ++n)
    runtime::write_matrix(output->stage("factor_" + std::to_string(n + 1) + ".npy"), result.run.factors[n]);
  const runtime::ReportInput input{arguments.input, shape.dtype, core.order, core.size, core.layout};
  nlohmann::ordered_json report = runtime::make_report(result.run, options, input);
  report["distributed"] = distribution_report(result.distribution);
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

}  // namespace

int run_diagonalize_distributed(const DiagonalizeArguments& arguments) {
  if (arguments.batch) throw user_error("--distributed takes one tensor, not a --batch");
  std::unique_ptr<runtime::Communicator> comm = runtime::launcher_communicator();
  runtime::TensorShape shape;
  runtime::on_every_rank(*comm, [&] { shape = runtime::read_tensor_shape(arguments.input); });
  const runtime::Dtype dtype = arguments.dtype.empty() ? shape.dtype : runtime::parse_dtype(arguments.dtype);
  const std::string summary = dtype == runtime::Dtype::float32 ? run_typed<float>(arguments, shape, *comm)
                                                               : run_typed<double>(arguments, shape, *comm);
  if (comm->rank() == 0 && !arguments.quiet)
    std::printf("%s\nwrote core.npy, factor_1.npy .. factor_%d.npy and report.json in %s\n", summary.c_str(),
                shape.order, arguments.out.c_str());
  return 0;
}

}  // namespace tensordiag::cli
