// The C++ API end to end: generate a diagonalizable tensor, save it as .npy, load it back, diagonalize,
// save the core and factors, and verify T = C x_1 M_1 ... x_D M_D independently.
//   usage: diagonalize_npy [IN.npy]   (without IN.npy: generates tensor.npy, order 4, size 6, seed 1)
// Writes core.npy and factor_1.npy .. factor_D.npy into the current directory. Exits non-zero when the
// reconstruction or orthogonality error exceeds 1e-10 (float64) or 1e-4 (float32), or on bad input.
#include <cstdio>
#include <string>
#include <variant>

#include "runtime/diagonalize.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/algorithm/verification.hpp"

namespace {

using namespace tensordiag::runtime;

template <class T>
int diagonalize_and_verify(const HostTensor<T>& tensor) {
  Options options;  // max_diag rule, backend auto, default tolerances
  const Result<T> result = diagonalize(tensor, options);
  for (const auto& record : result.history)
    std::printf("sweep %2d  off_rel %.3e  ||diag C||^2 %.12g\n", record.sweep, record.off_rel, record.diag_norm2);
  std::printf("stopped: %s after %d sweeps on %s\n", std::string(to_string(result.stop_reason)).c_str(),
              result.sweeps(), result.device.c_str());

  write_tensor("core.npy", result.core);
  for (std::size_t n = 0; n < result.factors.size(); ++n)
    write_matrix("factor_" + std::to_string(n + 1) + ".npy", result.factors[n]);

  const double reconstruction = reconstruction_error(tensor, result.core, result.factors);
  const double orthogonality = orthogonality_error(result.factors);
  const double bound = std::is_same_v<T, float> ? 1e-4 : 1e-10;
  std::printf("||T - C x_1 M_1 ... x_D M_D|| / ||T|| = %.3e\nmax_n ||M_n^T M_n - I|| = %.3e\n", reconstruction,
              orthogonality);
  return reconstruction < bound && orthogonality < bound ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string path;
    if (argc > 1) {
      path = argv[1];
    } else {
      GeneratorOptions options;
      options.order = 4;
      options.size = 6;
      path = "tensor.npy";
      write_tensor(path, generate_diagonalizable<double>(options).tensor);
    }
    const AnyTensor tensor = read_tensor(path);
    std::printf("%s: order %d, size %d, %s\n", path.c_str(), std::visit([](const auto& t) { return t.order(); }, tensor),
                std::visit([](const auto& t) { return t.size(); }, tensor), std::string(to_string(dtype_of(tensor))).c_str());
    return std::visit([](const auto& t) { return diagonalize_and_verify(t); }, tensor);
  } catch (const tensordiag::user_error& error) {
    std::fprintf(stderr, "diagonalize_npy: %s\n", error.what());
    return 2;
  }
}
