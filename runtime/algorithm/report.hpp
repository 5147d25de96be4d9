#pragma once
// report.json: what a diagonalize run computed, how it stopped, and how well the result checks out
// against the input. The runtime builds it; the CLI writes it (the runtime never prints).
#include <string>

#include <nlohmann/json.hpp>

#include "runtime/algorithm/run_options.hpp"

namespace tensordiag::runtime {

// Where the tensor came from: the file and its dtype before any conversion.
struct ReportInput {
  std::string path;
  Dtype dtype = Dtype::float64;
  // The tensor's shape where the result holds no core to read it from (a distributed run, whose
  // ranks hold rows of it); ignored otherwise.
  int order = 0;
  int size = 0;
  Layout layout = Layout::c_order;
  // A packed symmetric tensor (diagonalize_packed.hpp): its core is written packed and "layout"
  // says "packed".
  bool packed = false;
};

// Every field is documented in README.md ("report.json"), in the order written. Floats are
// written so that they round-trip exactly. Without Result::verification the two errors give way
// to "verification": "skipped" and the timings have no verification_seconds.
template <class T>
nlohmann::ordered_json make_report(const Result<T>& result, const Options& options, const ReportInput& input);

extern template nlohmann::ordered_json make_report(const Result<float>&, const Options&, const ReportInput&);
extern template nlohmann::ordered_json make_report(const Result<double>&, const Options&, const ReportInput&);
extern template nlohmann::ordered_json make_report(const Result<std::complex<float>>&, const Options&,
                                                   const ReportInput&);
extern template nlohmann::ordered_json make_report(const Result<std::complex<double>>&, const Options&,
                                                   const ReportInput&);

}  // namespace tensordiag::runtime
