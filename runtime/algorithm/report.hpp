#pragma once
// report.json: what a diagonalize run computed, how it stopped, and how well the result checks out
// against the input. The runtime builds it; the CLI writes it (the runtime never prints).
#include <string>

#include <nlohmann/json.hpp>

#include "runtime/algorithm/run_options.hpp"

namespace tensordiag::runtime {

// Independent checks of a result (runtime/algorithm/verification.hpp, float64), with the time they took.
struct Verification {
  double reconstruction_error = 0.0;  // ||T - C x_1 M_1 ... x_D M_D||_F / ||T||_F
  double orthogonality_error = 0.0;   // max_n ||M_n^T M_n - I||_F
  double seconds = 0.0;
};

// `tensor` is the tensor that was diagonalized (after any dtype conversion).
template <class T>
Verification verify(const HostTensor<T>& tensor, const Result<T>& result);

// Where the tensor came from: the file and its dtype before any conversion.
struct ReportInput {
  std::string path;
  Dtype dtype = Dtype::float64;
};

// Every field is documented in README.md ("report.json"), in the order written. Floats are
// written so that they round-trip exactly.
template <class T>
nlohmann::ordered_json make_report(const Result<T>& result, const Options& options,
                                   const ReportInput& input, const Verification& verification);

extern template Verification verify(const HostTensor<float>&, const Result<float>&);
extern template Verification verify(const HostTensor<double>&, const Result<double>&);
extern template nlohmann::ordered_json make_report(const Result<float>&, const Options&,
                                                   const ReportInput&, const Verification&);
extern template nlohmann::ordered_json make_report(const Result<double>&, const Options&,
                                                   const ReportInput&, const Verification&);

}  // namespace tensordiag::runtime
