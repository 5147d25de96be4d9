#include "cli/tensor_options.hpp"

#include "cli/option_checks.hpp"

namespace tensordiag::cli {

namespace {

// Order 2 gets its own message: a matrix is diagonalized by its SVD (DESIGN.md section 1). Where
// a symmetric structure can be asked for, order 2 passes here and the command checks it.
CLI::Validator tensor_order(bool matrix_allowed) {
  return CLI::Validator(
      [matrix_allowed](std::string& text) -> std::string {
        if (matrix_allowed) return whole_number(2)(text);
        if (text == "2") return order_2_message;
        return whole_number(3)(text);
      },
      matrix_allowed ? ">=2" : ">=3");
}

}  // namespace

void add_tensor_options(CLI::App& command, int& order, int& size, std::string& dtype, std::string& layout,
                        bool matrix_allowed, bool complex_allowed) {
  command.add_option("--order", order, "Order D (number of modes)")->required()->check(tensor_order(matrix_allowed));
  command.add_option("--size", size, "Size N of every mode")->required()->check(whole_number(2));
  const std::vector<std::string> dtypes = complex_allowed
                                              ? std::vector<std::string>{"float32", "float64", "complex64", "complex128"}
                                              : std::vector<std::string>{"float32", "float64"};
  command.add_option("--dtype", dtype, complex_allowed ? "Element type (complex: structure general or symmetric)" : "Element type")
      ->check(CLI::IsMember(dtypes))
      ->capture_default_str();
  command.add_option("--layout", layout, "C (last index fastest) or F (first fastest)")
      ->check(CLI::IsMember({"C", "F"}))
      ->capture_default_str();
}

}  // namespace tensordiag::cli
