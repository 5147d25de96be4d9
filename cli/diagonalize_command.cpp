#include "cli/diagonalize_command.hpp"

#include <cstdio>
#include <variant>

#include "cli/atomic_output.hpp"
#include "cli/diagonalize_batch.hpp"
#include "cli/diagonalize_complex.hpp"
#include "cli/diagonalize_distributed.hpp"
#include "cli/diagonalize_packed.hpp"
#include "cli/interrupt_signals.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/rule_option.hpp"
#include "cli/stop_summary.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/packed_symmetric.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/algorithm/report.hpp"
#include "runtime/core/scalar.hpp"

namespace tensordiag::cli {

template <class T>
std::string stage_result(AtomicOutput& output, const runtime::Result<T>& result, const runtime::Options& options,
                         const runtime::ReportInput& input) {
  runtime::write_tensor(output.stage("core.npy"), result.core);
  return stage_factors_and_report(output, result, options, input);
}

template <class T>
std::string stage_factors_and_report(AtomicOutput& output, const runtime::Result<T>& result,
                                     const runtime::Options& options, const runtime::ReportInput& input) {
  print_notes(result.notes);
  for (std::size_t n = 0; n < result.factors.size(); ++n)
    runtime::write_matrix(output.stage("factor_" + std::to_string(n + 1) + ".npy"),
                          result.factors[n]);
  output.stage_text("report.json", runtime::make_report(result, options, input).dump(2) + "\n");
  if (!result.verification) return stop_summary(result) + "; verification skipped";
  char errors[120];
  std::snprintf(errors, sizeof errors, "; reconstruction error %.3e, %s error %.3e",
                result.verification->reconstruction_error, runtime::is_complex_v<T> ? "unitarity" : "orthogonality",
                result.verification->orthogonality_error);
  return stop_summary(result) + errors;
}

template std::string stage_result(AtomicOutput&, const runtime::Result<float>&, const runtime::Options&,
                                  const runtime::ReportInput&);
template std::string stage_result(AtomicOutput&, const runtime::Result<double>&, const runtime::Options&,
                                  const runtime::ReportInput&);
template std::string stage_result(AtomicOutput&, const runtime::Result<std::complex<float>>&, const runtime::Options&,
                                  const runtime::ReportInput&);
template std::string stage_result(AtomicOutput&, const runtime::Result<std::complex<double>>&,
                                  const runtime::Options&, const runtime::ReportInput&);
template std::string stage_factors_and_report(AtomicOutput&, const runtime::Result<float>&, const runtime::Options&,
                                              const runtime::ReportInput&);
template std::string stage_factors_and_report(AtomicOutput&, const runtime::Result<double>&, const runtime::Options&,
                                              const runtime::ReportInput&);

void print_notes(const std::vector<std::string>& notes) {
  for (const auto& note : notes) std::fprintf(stderr, "tensordiag: note: %s\n", note.c_str());
}

runtime::Options run_options(const DiagonalizeArguments& arguments) {
  runtime::Options options = arguments.options;
  options.backend = runtime::parse_backend(arguments.backend);
  options.pivot_norm = runtime::parse_pivot_norm(arguments.pivot_norm);
  options.schedule = runtime::parse_schedule(arguments.schedule);
  options.init = runtime::parse_init(arguments.init);
  options.structure = runtime::parse_structure(arguments.structure);
  options.verify = !arguments.no_verify;
  options.cancelled = cancel_on_interrupt_signal();
  return options;
}

CLI::App* add_diagonalize_command(CLI::App& app, DiagonalizeArguments& arguments) {
  runtime::Options& options = arguments.options;
  CLI::App* command = app.add_subcommand(
      "diagonalize",
      "T = C x_1 M_1 ... x_D M_D: orthogonal factors M_n and a core C as\n"
      "diagonal as the rule makes it. Writes DIR/core.npy, DIR/factor_1.npy\n"
      ".. DIR/factor_D.npy (N x N) and DIR/report.json; a failed run\n"
      "writes nothing.");
  command->add_option("input", arguments.input,
                      "The tensor T: a .npy file, float32, float64, complex64 or complex128\n"
                      "(complex: unitary factors), C or Fortran order,\n"
                      "order >= 3 (>= 2 with --structure symmetric or skew), the same size N in\n"
                      "every mode, finite values")
      ->required()
      ->type_name("IN.npy");
  command->add_option("--out", arguments.out, "Output directory, created if missing")
      ->required()
      ->type_name("DIR");
  command->add_option("--max-sweeps", options.max_sweeps,
                      "Stop after this many sweeps (a sweep rotates every index pair\n"
                      "once in every mode)")
      ->check(whole_number(1))
      ->capture_default_str();
  command->add_option_function<double>(
             "--tol", [&options](const double& tol) { options.tol = tol; },
             "Stop when off_rel = off(C)/off(T) <= tol; 0: no tolerance stop\n"
             "[default: 1e-12 for float64, 1e-5 for float32]")
      ->check(at_least(0));
  command->add_option_function<double>(
             "--stall-tol", [&options](const double& stall_tol) { options.stall_tol = stall_tol; },
             "Stop when a sweep raises ||diag C||^2 by less than this, relative,\n"
             "without halving off_rel\n"
             "[default: 1e-13 for float64, 1e-6 for float32]")
      ->check(at_least(0));
  command->add_option("--structure", arguments.structure,
                      "symmetric: T is symmetric under every index permutation (checked,\n"
                      "relative tolerance 1e-10 float64, 1e-5 float32; order 2 allowed:\n"
                      "the Jacobi eigenvalue method) and T = C x_1 Q ... x_D Q with one\n"
                      "Q, written to every factor_n.npy. max_diag, no pivot check.\n"
                      "Complex data: one unitary U (Takagi at order 2); from order 4\n"
                      "the step is searched on the host (a GPU run too, between its\n"
                      "groups).\n"
                      "skew: T changes sign under every swap of two indices (checked\n"
                      "alike; order 2 allowed, N >= D), one Q, C skew and as close to\n"
                      "the block form as max_diag on the blocks C[kD, .., kD+D-1] gets it\n"
                      "(D = 2: the Murnaghan form, on the CPU only; from D = 3 the GPU\n"
                      "too)")
      ->check(CLI::IsMember({"general", "symmetric", "skew"}))
      ->capture_default_str();
  add_rule_option(*command, options.rule);
  command->add_option("--eta", options.eta,
                      "Pivot check: rotate (p, q) in mode n only if\n"
                      "2|Lambda_pq| >= eta ||Lambda||_2. 0 rotates every pair;\n"
                      "0 < eta <= 2/N guarantees convergence")
      ->check(at_least(0))
      ->capture_default_str();
  command->add_option("--pivot-norm", arguments.pivot_norm,
                      "How the GPU takes ||Lambda||_2 for the pivot check: device\n"
                      "(one block, Lanczos; N <= 1024), cusolver (gesvd), or auto\n"
                      "(device where it can)")
      ->check(CLI::IsMember({"auto", "device", "cusolver"}))
      ->capture_default_str();
  command->add_option("--schedule", arguments.schedule,
                      "The order of the pairs in a sweep: xor (several pivot groups\n"
                      "a pass; N a power of two), round-robin (one group a pass), or\n"
                      "auto (the engine's faster one for the shape)")
      ->check(CLI::IsMember({"auto", "xor", "round-robin"}))
      ->capture_default_str();
  command->add_option("--init", arguments.init,
                      "Where the factors start: identity, or hosvd (the left singular\n"
                      "vectors of the mode unfoldings, computed on the GPU by the general\n"
                      "GPU engine, else on the host; the sweeps then run on T x_n Q_n^T\n"
                      "and report.json's \"init\" says so)")
      ->check(CLI::IsMember({"identity", "hosvd"}))
      ->capture_default_str();
  command->add_option("--backend", arguments.backend,
                      "cuda runs on the GPU (an error without one), cpu on the\n"
                      "CPU; auto takes the GPU when there is one, else the CPU\n"
                      "(with a note on stderr)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  command->add_option("--dtype", arguments.dtype,
                      "Convert the input to this dtype before running (a real tensor may\n"
                      "be made complex, not a complex one real) [default: the input's]")
      ->check(CLI::IsMember({"float32", "float64", "complex64", "complex128"}));
  command->add_option("--threads", options.threads,
                      "CPU threads; 0 = OpenMP's default (OMP_NUM_THREADS if set,\n"
                      "else every hardware thread)")
      ->check(whole_number(0, runtime::max_threads))
      ->capture_default_str();
  command->add_flag("--batch", arguments.batch,
                    "IN.npy holds a batch (B, N, .., N) of tensors of one shape: the\n"
                    "outputs stack them the same way (core.npy (B, N, .., N),\n"
                    "factor_n.npy (B, N, N)) and report.json lists one report each.\n"
                    "On the GPU, small tensors run together, one block each. With\n"
                    "--packed D: (B, binom(N + D - 1, D)), a row a tensor");
  command->add_flag("--distributed", arguments.distributed,
                    "Spread the tensor over the ranks of `mpirun -np P tensordiag ...`\n"
                    "(one process a rank: CPU ranks, or GPU ranks with --backend\n"
                    "cuda, one a GPU; alone: one rank): each reads and\n"
                    "writes only its rows of mode 1 (mode D in Fortran order). DIR\n"
                    "must be seen by every rank. The verification checks the factors'\n"
                    "orthogonality only");
  command->add_option("--devices", arguments.devices,
                      "Spread the tensor over these GPUs of this machine, one rank a\n"
                      "GPU in this process (NCCL): a list of CUDA indices (0,1) or\n"
                      "all. Implies --distributed and --backend cuda");
  command->add_option("--packed", arguments.packed_order,
                      "IN.npy holds a symmetric tensor of order D in packed storage:\n"
                      "a float32 or float64 vector of its binom(N+D-1, D) distinct\n"
                      "entries T[i_1..i_D], i_1 <= .. <= i_D, in lexicographic order\n"
                      "(NumPy: combinations_with_replacement(range(N), D)); N follows\n"
                      "from the length. Implies --structure symmetric; core.npy is\n"
                      "written packed the same way. On the GPU for D <= 12")
      ->check(whole_number(2, runtime::max_packed_order))
      ->type_name("D");
  command->add_flag("--no-verify", arguments.no_verify,
                    "Skip the check of the result against the input (the\n"
                    "reconstruction and orthogonality errors, which cost about one\n"
                    "sweep): report.json says \"verification\": \"skipped\"");
  command->add_flag("-q,--quiet", arguments.quiet,
                    "Print nothing but errors: no per-sweep progress (shown only\n"
                    "when stderr is a terminal), no summary");
  return command;
}

int run_diagonalize(const DiagonalizeArguments& arguments) {
  if (arguments.packed_order > 0) return run_diagonalize_packed(arguments);
  if (arguments.distributed || !arguments.devices.empty()) return run_diagonalize_distributed(arguments);
  if (arguments.batch) return run_diagonalize_batch(arguments);
  // A tensor the device cannot hold is refused from its header, before gigabytes are read.
  const runtime::Structure structure = runtime::parse_structure(arguments.structure);
  const runtime::TensorShape shape = runtime::read_tensor_shape(arguments.input, structure);
  const runtime::Dtype run_dtype = arguments.dtype.empty() ? shape.dtype : runtime::parse_dtype(arguments.dtype);
  if (runs_complex(arguments, shape.dtype)) return run_diagonalize_complex(arguments, shape);
  runtime::check_device_room(shape.order, shape.size, run_dtype, run_options(arguments));
  runtime::AnyTensor tensor = runtime::read_tensor(arguments.input, structure);
  const runtime::ReportInput input{arguments.input, runtime::dtype_of(tensor)};
  AtomicOutput output(arguments.out);
  if (run_dtype != input.dtype) tensor = runtime::convert(tensor, run_dtype);
  runtime::Options options = run_options(arguments);
  options.on_sweep = sweep_progress(arguments.quiet, options.max_sweeps);
  const std::string summary = std::visit(
      [&](const auto& typed) { return stage_result(output, runtime::diagonalize(typed, options), options, input); },
      tensor);
  output.commit();
  const int order = std::visit([](const auto& typed) { return typed.order(); }, tensor);
  if (!arguments.quiet)
    std::printf("%s\nwrote core.npy, factor_1.npy .. factor_%d.npy and report.json in %s\n",
                summary.c_str(), order, arguments.out.c_str());
  return 0;
}

}  // namespace tensordiag::cli
