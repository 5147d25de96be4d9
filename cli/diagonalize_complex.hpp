#pragma once
// `tensordiag diagonalize` of a complex tensor (a complex64 or complex128 file, or --dtype
// complex64|complex128): T = C x_1 U_1 ... x_D U_D with unitary U_n on the CPU engine
// (runtime/diagonalize_complex.hpp), written as the real run's files are, in the complex dtype.
#include "cli/diagonalize_command.hpp"
#include "runtime/io/npy.hpp"

namespace tensordiag::cli {

// `shape` is the input's header, read already. A complex file with a real --dtype is a user_error
// (the imaginary parts would be dropped).
int run_diagonalize_complex(const DiagonalizeArguments& arguments, const runtime::TensorShape& shape);

// Whether a file of `file_dtype` runs complex: a complex file, or --dtype complex64|complex128.
bool runs_complex(const DiagonalizeArguments& arguments, runtime::Dtype file_dtype);

// A complex run's dtype: --dtype where given (a real one on a complex file is the user_error above),
// else the file's.
runtime::Dtype complex_run_dtype(const DiagonalizeArguments& arguments, runtime::Dtype file_dtype);

}  // namespace tensordiag::cli
