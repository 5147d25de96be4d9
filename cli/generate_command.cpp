#include "cli/generate_command.hpp"

#include <cstdio>
#include <filesystem>
#include <string>

#include "cli/atomic_output.hpp"
#include "cli/interrupt_signals.hpp"
#include "cli/option_checks.hpp"
#include "cli/tensor_options.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/algorithm/packed_generator.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/distributed/host_memory.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_packed.hpp"
#include "runtime/io/npy_rows.hpp"

namespace tensordiag::cli {

CLI::App* add_generate_command(CLI::App& app, GenerateArguments& arguments) {
  runtime::GeneratorOptions& options = arguments.options;
  CLI::App* command = app.add_subcommand(
      "generate",
      "Write a diagonalizable test tensor T = S x_1 Q_1 ... x_D Q_D (S\n"
      "diagonal, Q_n random orthogonal, both fixed by the seed), plus\n"
      "optional Gaussian noise, as a .npy file. With --dtype complex64 or\n"
      "complex128: S complex, Q_n random unitary, complex noise.");
  add_tensor_options(*command, options.order, options.size, arguments.dtype, arguments.layout, true, true);
  command->add_option("--structure", arguments.structure,
                      "symmetric: one Q in every mode (T = sum_l S_l q_l x .. x q_l,\n"
                      "symmetric under every index permutation; order 2 allowed) and\n"
                      "symmetric noise (complex dtypes: one unitary U).\n"
                      "skew: T = S x_1 Q ... x_D Q with S in the block form\n"
                      "(S[pi(kD, .., kD+D-1)] = sign(pi) S_k), skew-symmetric noise;\n"
                      "order 2 allowed, size >= order")
      ->check(CLI::IsMember({"general", "symmetric", "skew"}))
      ->capture_default_str();
  command->add_option("--seed", options.seed, "Seed of the random stream: same seed, same tensor")
      ->required()
      ->check(unsigned_64());
  command->add_option("--noise", options.noise,
                      "Relative Frobenius size of the added Gaussian noise:\n"
                      "||T_noisy - T|| = noise ||T||")
      ->check(at_least(0))
      ->capture_default_str();
  command->add_flag("--packed", arguments.packed,
                    "With --structure symmetric: write only the binom(N+D-1, D) distinct\n"
                    "entries, i_1 <= .. <= i_D in lexicographic order, as a vector (the\n"
                    "input of diagonalize --packed D), never the N^D tensor; without\n"
                    "noise they are the full tensor's of the same seed. Real dtypes");
  command->add_option("output", arguments.output, "The .npy file to write (replaced if it exists)")
      ->required()
      ->type_name("OUT.npy");
  return command;
}

namespace {

// A general tensor is written a chunk at a time as it is made (memory: a few MB, not the tensor), so
// tensors larger than memory can be set up for distributed runs; a symmetric or skew one, whose
// noise is (anti)symmetrized over the whole tensor, is made whole first.
template <class T>
void write_generated(const std::filesystem::path& staged, const runtime::GeneratorOptions& options) {
  if (options.structure != runtime::Structure::general) {
    runtime::write_tensor(staged, runtime::generate_diagonalizable<T>(options).tensor);
    return;
  }
  runtime::NpyRowWriter<T> writer(staged, options.order, options.size, options.layout);
  runtime::generate_diagonalizable_rows<T>(options,
                                           [&writer](const T* chunk, std::size_t length) { writer.append(chunk, length); });
  writer.finish();
}

// What --packed takes: a symmetric tensor of a real dtype, no layout (checked before OUT's folder is touched).
void check_packed_generate(const GenerateArguments& arguments, const runtime::GeneratorOptions& options,
                           runtime::Dtype dtype) {
  if (options.structure != runtime::Structure::symmetric)
    throw user_error("--packed writes a symmetric tensor's distinct entries: it needs --structure symmetric");
  if (runtime::is_complex(dtype))
    throw user_error("--packed writes real tensors (float32 or float64), not " + arguments.dtype);
  if (arguments.layout != "C") throw user_error("--packed writes a vector: --layout does not apply to it");
  runtime::check_packed_shape(options.order, options.size);
  // While made, the entries are held in double, the noise's draws too, and then in the dtype
  // (runtime/algorithm/packed_generator.cpp). Refused here rather than granted by Linux and
  // killed later.
  const std::size_t count = runtime::multiset_count(options.size, options.order);
  const double need = static_cast<double>(count) *
                      static_cast<double>(8 + (options.noise > 0 ? 8 : 0) + runtime::dtype_bytes(dtype));
  const auto available = runtime::available_host_memory();
  if (available && need > static_cast<double>(*available)) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "--packed: the %zu distinct entries need %.1f GB while they are made, and this machine has "
                  "%.1f GB available",
                  count, need / 1e9, static_cast<double>(*available) / 1e9);
    throw user_error(text);
  }
}

}  // namespace

int run_generate(const GenerateArguments& arguments) {
  const std::filesystem::path path = arguments.output;
  if (!path.has_filename() || std::filesystem::is_directory(path))
    throw user_error("'" + arguments.output + "' is a directory: name the .npy file to write");
  runtime::GeneratorOptions options = arguments.options;
  options.structure = runtime::parse_structure(arguments.structure);
  if (options.order == 2 && options.structure == runtime::Structure::general)
    throw user_error(std::string("--order: ") + order_2_message +
                     " (or --structure symmetric or skew for a symmetric or skew-symmetric matrix)");
  options.layout =
      arguments.layout == "F" ? runtime::Layout::fortran_order : runtime::Layout::c_order;
  options.cancelled = cancel_on_interrupt_signal();
  const runtime::Dtype dtype = runtime::parse_dtype(arguments.dtype);
  if (arguments.packed) check_packed_generate(arguments, options, dtype);
  AtomicOutput output(path.parent_path());
  const std::filesystem::path staged = output.stage(path.filename().string());
  if (arguments.packed) {
    if (dtype == runtime::Dtype::float32)
      runtime::write_packed_symmetric(staged, runtime::generate_packed_symmetric<float>(options).tensor);
    else
      runtime::write_packed_symmetric(staged, runtime::generate_packed_symmetric<double>(options).tensor);
  } else if (runtime::is_complex(dtype)) {
    if (options.structure == runtime::Structure::skew)
      throw user_error("--structure skew takes a real dtype; complex tensors are general or symmetric");
    if (dtype == runtime::Dtype::complex64)
      runtime::write_tensor(staged, runtime::generate_complex_diagonalizable<float>(options).tensor);
    else
      runtime::write_tensor(staged, runtime::generate_complex_diagonalizable<double>(options).tensor);
  } else if (dtype == runtime::Dtype::float32)
    write_generated<float>(staged, options);
  else
    write_generated<double>(staged, options);
  output.commit();
  return 0;
}

}  // namespace tensordiag::cli
