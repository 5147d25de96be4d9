// _tensordiag: the runtime's public API for Python. tensordiag/__init__.py checks dtypes and
// layouts and shapes the results; this file converts, releases the GIL for the run and takes it back
// for the per-sweep callback and the cancel check. user_error and codegen_error become ValueError with their message.
// NumPy arrays are read in place (numpy_tensor.hpp); CUDA arrays too, with the results left on the
// device as DeviceArray (cuda_input.hpp, device_array.hpp).
#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/kernel_source.hpp"
#include "codegen/builtin_rules.hpp"
#include "python/src/cuda_input.hpp"
#include "python/src/device_array.hpp"
#include "python/src/json_object.hpp"
#include "python/src/numpy_tensor.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_complex.hpp"
#include "runtime/diagonalize_packed.hpp"
#include "runtime/algorithm/packed_generator.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/diagonalize_on_devices.hpp"
#include "runtime/distributed/distribution_report.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/stop_summary.hpp"
#include "runtime/core/version.hpp"

namespace tensordiag::python {

namespace {

py::dict record_dict(const runtime::SweepRecord& record) {
  py::dict d;
  d["sweep"] = record.sweep;
  d["off_rel"] = record.off_rel;
  d["diag_norm2"] = record.diag_norm2;
  d["trace"] = record.trace;
  d["seconds"] = record.seconds;
  return d;
}

// The run's figures; `core` (in `layout`) and `factors` are the arrays the caller gets (NumPy or DeviceArray).
template <class T>
py::dict result_dict(const runtime::Result<T>& result, py::object core, runtime::Layout layout, py::list factors) {
  py::list history;
  for (const auto& record : result.history) history.append(record_dict(record));
  py::dict timings;
  timings["setup_seconds"] = result.timings.setup_seconds;
  timings["sweeps_seconds"] = result.timings.sweeps_seconds;
  timings["total_seconds"] = result.timings.total_seconds;
  timings["compile_seconds"] = result.timings.compile_seconds;
  py::object verification = py::none();
  if (result.verification) {
    timings["verification_seconds"] = result.verification->seconds;
    py::dict errors;
    errors["reconstruction_error"] = result.verification->reconstruction_error;
    errors["orthogonality_error"] = result.verification->orthogonality_error;
    verification = errors;
  }
  py::dict out;
  out["core"] = std::move(core);
  out["factors"] = std::move(factors);
  out["dtype"] = std::string(runtime::to_string(runtime::dtype_of<T>()));
  out["layout"] = std::string(runtime::to_string(layout));
  out["history"] = history;
  out["stop_reason"] = std::string(runtime::to_string(result.stop_reason));
  out["backend"] = std::string(runtime::to_string(result.backend));
  out["engine"] = result.engine;
  out["schedule"] = result.schedule;
  out["passes_per_sweep"] = result.passes_per_sweep;
  out["kernels"] = result.kernels;
  out["device"] = result.device;
  out["rule"] = result.rule;
  out["structure"] = std::string(runtime::to_string(result.structure));
  out["eta"] = result.eta;
  out["tol"] = result.tol;
  out["stall_tol"] = result.stall_tol;
  out["timings"] = timings;
  out["verification"] = verification;
  py::object pivot_checks = py::none();
  if (result.pivot_checks) {
    py::dict checks;
    checks["mode_checks"] = result.pivot_checks->checks;
    checks["exact_norms"] = result.pivot_checks->exact_norms;
    pivot_checks = checks;
  }
  out["pivot_checks"] = pivot_checks;
  out["device_memory_peak_bytes"] =
      result.device_memory_peak_bytes ? py::object(py::int_(*result.device_memory_peak_bytes)) : py::none();
  py::object init = py::none();
  if (result.hosvd_start) {
    py::dict start;
    start["method"] = "hosvd";
    start["seconds"] = result.timings.init_seconds;
    start["computed_on"] = result.hosvd_on_device ? "device" : "host";
    init = start;
  }
  out["init"] = init;
  return out;
}

// A host run's result as the caller gets it: core (in the input's layout) and factors as NumPy
// arrays that take over the runtime's buffers.
template <class T>
py::dict host_result_dict(runtime::Result<T>&& result) {
  py::list factors;
  for (auto& factor : result.factors) factors.append(to_numpy(std::move(factor)));
  const runtime::Layout layout = result.core.layout();
  py::object core = to_numpy(std::move(result.core));
  return result_dict(result, std::move(core), layout, std::move(factors));
}

// `devices` empty: one process's engines; else the tensor spread over those GPUs (GPU ranks).
// With devices, out["distributed"] is report.json's "distributed" object (Result.distributed).
template <class T>
py::dict run(const py::array& array, const runtime::Options& options, const std::vector<int>& devices) {
  const runtime::HostTensor<T> tensor = to_host_tensor<T>(array, options.structure);
  runtime::Result<T> result;
  std::optional<runtime::DistributionFigures> distribution;
  {
    const py::gil_scoped_release release;
    if constexpr (runtime::is_complex_v<T>) {
      // Complex tensors (unitary factors): the GPU engine's complex kernels or the CPU's complex engine.
      if (!devices.empty())
        throw user_error("devices=: the GPU ranks take real tensors; complex tensors run on the CPU");
      result = runtime::diagonalize_complex(tensor, options);
    } else if (devices.empty()) {
      result = runtime::diagonalize(tensor, options);
    } else {
      runtime::OnDevicesResult<T> ranks = runtime::diagonalize_on_devices(tensor, options, devices);
      result = std::move(ranks.run);
      distribution = ranks.distribution;
    }
  }
  py::dict out = host_result_dict(std::move(result));
  if (distribution) out["distributed"] = json_object(runtime::distribution_report(*distribution));
  return out;
}

// A batch's run: each array of `arrays` made a runtime tensor by to_tensor, all run by run_all
// without the GIL, each result made the caller's dict by to_dict.
template <class ToTensor, class RunAll, class ToDict>
py::list run_many(const py::list& arrays, ToTensor to_tensor, RunAll run_all, ToDict to_dict) {
  std::vector<decltype(to_tensor(std::declval<py::array>()))> tensors;
  for (const py::handle array : arrays) tensors.push_back(to_tensor(py::reinterpret_borrow<py::array>(array)));
  decltype(run_all(tensors)) results;
  {
    const py::gil_scoped_release release;
    results = run_all(tensors);
  }
  py::list out;
  for (auto& result : results) out.append(to_dict(std::move(result)));
  return out;
}

// Tensors of one shape, layout and dtype (tensordiag/__init__.py sees to that), each read in place;
// runtime::diagonalize_batch runs them (on the GPU, those that fit a block together, in one launch).
template <class T>
py::list run_batch(const py::list& arrays, const runtime::Options& options) {
  return run_many(
      arrays, [&](const py::array& array) { return to_host_tensor<T>(array, options.structure); },
      [&](const auto& tensors) { return runtime::diagonalize_batch(tensors, options); },
      [](runtime::Result<T>&& result) { return host_result_dict(std::move(result)); });
}

// A CUDA array's run: the results stay on its device, as DeviceArrays.
template <class T>
py::dict run_on_device(const CudaArray& array, const runtime::Options& options) {
  runtime::DeviceResult<T> result;
  {
    const py::gil_scoped_release release;
    result = runtime::diagonalize_on_device(array.view<T>(), options);
  }
  const std::int64_t n = result.size;
  const std::vector<std::ptrdiff_t> strides = runtime::strides_of(result.order, result.size, result.layout);
  py::object core = py::cast(DeviceArray(result.core, std::vector<std::int64_t>(static_cast<std::size_t>(result.order), n),
                                         std::vector<std::int64_t>(strides.begin(), strides.end()), result.device));
  py::list factors;
  for (auto& factor : result.factors) factors.append(DeviceArray(std::move(factor), {n, n}, {n, 1}, result.device));
  return result_dict(result.run, std::move(core), result.layout, std::move(factors));
}

// Options::cancelled for Python: with the GIL, run the handlers of pending signals (Ctrl-C raises
// KeyboardInterrupt in the default one). An exception from a handler ends the run, unwinding
// through the engine as C++ does (device buffers freed), and reaches the caller as raised.
bool python_signal_raised() {
  const py::gil_scoped_acquire acquire;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  return false;
}

// on_sweep(record) -> truthy stops the run; it runs with the GIL held. An exception from it ends the
// run and reaches the caller. The options refer to on_sweep: they live no longer than the call.
runtime::Options make_options(int max_sweeps, std::optional<double> tol, double eta, const std::string& rule,
                              const std::string& backend, std::optional<double> stall_tol, int threads, bool verify,
                              const std::string& schedule, const std::string& structure,
                              const py::object& on_sweep, const std::string& init = "identity") {
  runtime::Options options;
  options.init = runtime::parse_init(init);
  options.backend = runtime::parse_backend(backend);
  options.schedule = runtime::parse_schedule(schedule);
  options.structure = runtime::parse_structure(structure);
  options.rule = rule;
  options.eta = eta;
  options.max_sweeps = max_sweeps;
  options.tol = tol;
  options.stall_tol = stall_tol;
  options.threads = threads;
  options.verify = verify;
  options.cancelled = python_signal_raised;
  // Set only when there is one: without it the GPU may run a batch in one launch (one_block).
  // Captures by reference: the engine copies std::functions without the GIL, and copying a
  // py::object would touch its reference count.
  if (!on_sweep.is_none())
    options.on_sweep = [&on_sweep](const runtime::SweepRecord& record) {
      const py::gil_scoped_acquire acquire;
      return static_cast<bool>(py::bool_(on_sweep(record_dict(record))));
    };
  return options;
}

// run.template operator()<T>() for the scalar type T of `array`: float or double, and with `complex`
// also std::complex of them; internal_error naming `what` otherwise (tensordiag/__init__.py checks
// dtypes before the call).
template <bool complex, class Run>
auto by_scalar_type(const py::handle& array, const std::string& what, Run&& run) {
  if (py::isinstance<py::array_t<float>>(array)) return run.template operator()<float>();
  if (py::isinstance<py::array_t<double>>(array)) return run.template operator()<double>();
  if constexpr (complex) {
    if (py::isinstance<py::array_t<std::complex<float>>>(array)) return run.template operator()<std::complex<float>>();
    if (py::isinstance<py::array_t<std::complex<double>>>(array)) return run.template operator()<std::complex<double>>();
  }
  throw internal_error("_tensordiag." + what + ": the dtype is not float32, float64" +
                       (complex ? ", complex64 or complex128" : " (packed storage is real)"));
}

// `array` is C- or Fortran-contiguous float32, float64, complex64 or complex128.
py::dict diagonalize(const py::array& array, int max_sweeps, std::optional<double> tol, double eta,
                     const std::string& rule, const std::string& backend, std::optional<double> stall_tol,
                     int threads, bool verify, const std::string& schedule, const std::string& structure,
                     const py::object& on_sweep, const std::vector<int>& devices, const std::string& init) {
  const runtime::Options options = make_options(max_sweeps, tol, eta, rule, backend, stall_tol, threads, verify,
                                                schedule, structure, on_sweep, init);
  return by_scalar_type<true>(array, "diagonalize", [&]<class T>() { return run<T>(array, options, devices); });
}

// `source`: a DLPack capsule from the array's __dlpack__, or the fields of its
// __cuda_array_interface__ as (pointer, shape, strides in bytes or None, typestr). The caller keeps
// the array (and the capsule) alive for the call.
py::dict diagonalize_cuda(const py::object& source, int max_sweeps, std::optional<double> tol, double eta,
                          const std::string& rule, const std::string& backend, std::optional<double> stall_tol,
                          int threads, bool verify, const std::string& schedule, const std::string& structure,
                          const py::object& on_sweep, const std::string& init) {
  const runtime::Options options = make_options(max_sweeps, tol, eta, rule, backend, stall_tol, threads, verify,
                                                schedule, structure, on_sweep, init);
  CudaArray array;
  if (py::isinstance<py::capsule>(source)) {
    array = read_dlpack(py::reinterpret_borrow<py::capsule>(source));
  } else {
    const auto fields = py::cast<py::tuple>(source);
    array = read_array_interface(py::cast<std::uintptr_t>(fields[0]), py::cast<std::vector<std::int64_t>>(fields[1]),
                                 py::cast<std::optional<std::vector<std::int64_t>>>(fields[2]),
                                 py::cast<std::string>(fields[3]));
  }
  if (array.dtype == runtime::Dtype::float32) return run_on_device<float>(array, options);
  return run_on_device<double>(array, options);
}

// A symmetric tensor in packed storage (runtime/diagonalize_packed.hpp): `values` a contiguous float32
// or float64 vector of its distinct entries, N read from its length, read in place (the caller
// holds the array for the call).
template <class T>
runtime::PackedSymmetricTensor<T> to_packed_tensor(const py::array& values, int order) {
  const auto count = static_cast<std::size_t>(values.size());
  return runtime::PackedSymmetricTensor<T>::borrow(order, runtime::packed_size_of(order, count),
                                                   static_cast<const T*>(values.data()));
}

// A packed run's result as the caller gets it: the core packed (its distinct entries), the factors.
template <class T>
py::dict packed_result_dict(runtime::PackedResult<T>&& result) {
  py::list factors;
  for (auto& factor : result.run.factors) factors.append(to_numpy(std::move(factor)));
  const auto count = static_cast<py::ssize_t>(result.core.values().size());
  py::object core = adopt_buffer(std::move(result.core.values()), {count}, {1});
  py::dict out = result_dict(result.run, std::move(core), runtime::Layout::c_order, std::move(factors));
  out["layout"] = "packed";
  return out;
}

template <class T>
py::dict run_packed(const py::array& values, int order, const runtime::Options& options) {
  const runtime::PackedSymmetricTensor<T> tensor = to_packed_tensor<T>(values, order);
  runtime::PackedResult<T> result;
  {
    const py::gil_scoped_release release;
    result = runtime::diagonalize_packed(tensor, options);
  }
  return packed_result_dict(std::move(result));
}

// Packed tensors of one order, size and dtype, one after the other (runtime::diagonalize_packed_batch).
template <class T>
py::list run_packed_batch(const py::list& values, int order, const runtime::Options& options) {
  return run_many(
      values, [&](const py::array& each) { return to_packed_tensor<T>(each, order); },
      [&](const auto& tensors) { return runtime::diagonalize_packed_batch(tensors, options); },
      [](runtime::PackedResult<T>&& result) { return packed_result_dict(std::move(result)); });
}

py::dict diagonalize_packed(const py::array& values, int order, int max_sweeps, std::optional<double> tol,
                            const std::string& rule, const std::string& backend, std::optional<double> stall_tol,
                            int threads, bool verify, const std::string& schedule, const py::object& on_sweep,
                            const std::string& init) {
  const runtime::Options options = make_options(max_sweeps, tol, 0.0, rule, backend, stall_tol, threads, verify,
                                                schedule, "symmetric", on_sweep, init);
  return by_scalar_type<false>(values, "diagonalize_packed",
                                [&]<class T>() { return run_packed<T>(values, order, options); });
}

// Batches: `arrays` (`values`) a non-empty list of arrays of one dtype, as diagonalize (diagonalize_packed)
// takes one (complex tensors run as diagonalize_complex runs each); no per-sweep callback (a batch's
// sweeps are not one run's).
py::list diagonalize_batch(const py::list& arrays, int max_sweeps, std::optional<double> tol, double eta,
                           const std::string& rule, const std::string& backend, std::optional<double> stall_tol,
                           int threads, bool verify, const std::string& schedule, const std::string& structure,
                           const std::string& init) {
  const runtime::Options options = make_options(max_sweeps, tol, eta, rule, backend, stall_tol, threads, verify,
                                                schedule, structure, py::none(), init);
  if (arrays.empty()) throw internal_error("_tensordiag.diagonalize_batch: an empty batch");
  return by_scalar_type<true>(arrays[0], "diagonalize_batch", [&]<class T>() { return run_batch<T>(arrays, options); });
}

py::list diagonalize_packed_batch(const py::list& values, int order, int max_sweeps, std::optional<double> tol,
                                  const std::string& backend, std::optional<double> stall_tol, int threads,
                                  bool verify, const std::string& schedule, const std::string& init) {
  const runtime::Options options = make_options(max_sweeps, tol, 0.0, "max_diag", backend, stall_tol, threads, verify,
                                                schedule, "symmetric", py::none(), init);
  if (values.empty()) throw internal_error("_tensordiag.diagonalize_packed_batch: an empty batch");
  return by_scalar_type<false>(values[0], "diagonalize_packed_batch",
                                [&]<class T>() { return run_packed_batch<T>(values, order, options); });
}

// (values, diagonal, Q) of a planted packed symmetric tensor in T (runtime/algorithm/packed_generator.hpp).
template <class T>
py::tuple packed_tuple(const runtime::GeneratorOptions& options) {
  runtime::GeneratedPackedTensor<T> generated;
  {
    const py::gil_scoped_release release;
    generated = runtime::generate_packed_symmetric<T>(options);
  }
  const auto count = static_cast<py::ssize_t>(generated.tensor.count());
  const auto planted = static_cast<py::ssize_t>(generated.diagonal.size());
  return py::make_tuple(adopt_buffer(std::move(generated.tensor.values()), {count}, {1}),
                        adopt_buffer(std::move(generated.diagonal), {planted}, {1}), to_numpy(std::move(generated.q)));
}

py::tuple generate_packed(int order, int size, std::uint64_t seed, double noise, const std::string& dtype) {
  runtime::GeneratorOptions options;
  options.structure = runtime::Structure::symmetric;
  options.order = order;
  options.size = size;
  options.seed = seed;
  options.noise = noise;
  const runtime::Dtype type = runtime::parse_dtype(dtype);
  if (runtime::is_complex(type)) throw user_error("packed storage holds real tensors (float32 or float64), not " + dtype);
  return type == runtime::Dtype::float32 ? packed_tuple<float>(options) : packed_tuple<double>(options);
}

// (tensor, diagonal, factors) of a generator's result (GeneratedTensor or GeneratedComplexTensor).
template <class Generate>
py::tuple generated_tuple(Generate&& generate) {
  decltype(generate()) generated;
  {
    const py::gil_scoped_release release;
    generated = generate();
  }
  py::list factors;
  for (auto& factor : generated.factors) factors.append(to_numpy(std::move(factor)));
  const auto planted = static_cast<py::ssize_t>(generated.diagonal.size());  // N, or N / D blocks for skew
  return py::make_tuple(to_numpy(std::move(generated.tensor)),
                        adopt_buffer(std::move(generated.diagonal), {planted}, {1}), factors);
}

py::tuple generate(int order, int size, std::uint64_t seed, double noise, const std::string& dtype,
                   bool fortran_order, const std::string& structure) {
  runtime::GeneratorOptions options;
  options.structure = runtime::parse_structure(structure);
  options.order = order;
  options.size = size;
  options.seed = seed;
  options.noise = noise;
  options.layout = fortran_order ? runtime::Layout::fortran_order : runtime::Layout::c_order;
  switch (runtime::parse_dtype(dtype)) {
    case runtime::Dtype::float32: return generated_tuple([&] { return runtime::generate_diagonalizable<float>(options); });
    case runtime::Dtype::complex64:
      return generated_tuple([&] { return runtime::generate_complex_diagonalizable<float>(options); });
    case runtime::Dtype::complex128:
      return generated_tuple([&] { return runtime::generate_complex_diagonalizable<double>(options); });
    case runtime::Dtype::float64: break;
  }
  return generated_tuple([&] { return runtime::generate_diagonalizable<double>(options); });
}

// One kind's generated CUDA source, or for "all" {kind: source} of every kind that serves the shape.
// `structure` "symmetric" or "skew": the kinds such a run loads, with their variants.
py::object kernel_source(int order, int size, const std::string& kind, const std::string& dtype,
                         const std::string& layout, const std::string& rule, const std::string& structure) {
  const bool all = kind == "all";
  const codegen::KernelStructure kernel_structure = codegen::parse_kernel_structure(structure);
  const codegen::KernelSpec spec =
      codegen::make_kernel_spec(all ? "group_pass" : kind, order, size, dtype, layout, rule);
  if (!all) return py::str(codegen::kernel_source(codegen::for_structure(spec, kernel_structure)));
  py::dict sources;
  for (const codegen::KindSource& each : codegen::every_kind_source(spec, kernel_structure))
    if (each.generated()) sources[py::str(std::string(codegen::to_string(each.spec.kind)))] = each.source;
  return sources;
}

// Result.summary(): the runtime's line, as the command prints it. `reason` is a to_string(StopReason).
std::string stop_summary(const std::string& reason, const std::string& rule, int sweeps, double off_rel, double tol,
                         double stall_tol) {
  for (const auto stop : {runtime::StopReason::tolerance, runtime::StopReason::stalled, runtime::StopReason::max_sweeps,
                          runtime::StopReason::callback})
    if (runtime::to_string(stop) == reason) {
      const dsl::RuleInfo* info = codegen::find_builtin_rule(rule);
      if (!info) throw user_error(codegen::unknown_rule_message(rule));
      return runtime::stop_summary(stop, info->stalls_on, sweeps, off_rel, tol, stall_tol);
    }
  throw internal_error("_tensordiag.stop_summary: unknown stop reason '" + reason + "'");
}

}  // namespace

}  // namespace tensordiag::python

PYBIND11_MODULE(_tensordiag, m) {
  namespace py = pybind11;
  using namespace tensordiag::python;
  m.doc() = "tensordiag's C++ runtime; use the tensordiag package, which documents and checks the arguments.";
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const tensordiag::user_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const tensordiag::codegen::codegen_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.attr("__version__") = std::string(tensordiag::runtime::version());
  py::list rules;
  for (const std::string& name : tensordiag::codegen::builtin_rule_names()) rules.append(name);
  m.attr("rules") = py::tuple(rules);
  m.attr("kernel_kinds") = py::tuple(py::cast(tensordiag::codegen::kernel_kinds()));
  m.def("diagonalize", &diagonalize, py::arg("array"), py::arg("max_sweeps"), py::arg("tol"), py::arg("eta"),
        py::arg("rule"), py::arg("backend"), py::arg("stall_tol"), py::arg("threads"), py::arg("verify"),
        py::arg("schedule"), py::arg("structure"), py::arg("on_sweep"), py::arg("devices") = std::vector<int>{},
        py::arg("init") = "identity");
  m.def("diagonalize_batch", &diagonalize_batch, py::arg("arrays"), py::arg("max_sweeps"), py::arg("tol"),
        py::arg("eta"), py::arg("rule"), py::arg("backend"), py::arg("stall_tol"), py::arg("threads"),
        py::arg("verify"), py::arg("schedule"), py::arg("structure"), py::arg("init"));
  m.def("diagonalize_cuda", &diagonalize_cuda, py::arg("source"), py::arg("max_sweeps"), py::arg("tol"), py::arg("eta"),
        py::arg("rule"), py::arg("backend"), py::arg("stall_tol"), py::arg("threads"), py::arg("verify"),
        py::arg("schedule"), py::arg("structure"), py::arg("on_sweep"), py::arg("init") = "identity");
  py::class_<DeviceArray>(m, "DeviceArray",
                          "A result in CUDA device memory: take it with cupy.from_dlpack, torch.from_dlpack, "
                          "numba.cuda.as_cuda_array or cupy.asarray (no copy).")
      .def("__dlpack__", &DeviceArray::dlpack, py::kw_only(), py::arg("stream") = py::none(),
           py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(), py::arg("copy") = py::none())
      .def("__dlpack_device__", &DeviceArray::dlpack_device)
      .def_property_readonly("__cuda_array_interface__", &DeviceArray::cuda_array_interface)
      .def_property_readonly("shape", &DeviceArray::shape)
      .def_property_readonly("dtype", &DeviceArray::dtype)
      .def_property_readonly("device", &DeviceArray::device)
      .def("__repr__", &DeviceArray::repr);
  m.def("generate", &generate, py::arg("order"), py::arg("size"), py::arg("seed"), py::arg("noise"), py::arg("dtype"),
        py::arg("fortran_order"), py::arg("structure"));
  m.def("diagonalize_packed", &diagonalize_packed, py::arg("values"), py::arg("order"), py::arg("max_sweeps"),
        py::arg("tol"), py::arg("rule"), py::arg("backend"), py::arg("stall_tol"), py::arg("threads"),
        py::arg("verify"), py::arg("schedule"), py::arg("on_sweep"), py::arg("init") = "identity");
  m.def("diagonalize_packed_batch", &diagonalize_packed_batch, py::arg("values"), py::arg("order"),
        py::arg("max_sweeps"), py::arg("tol"), py::arg("backend"), py::arg("stall_tol"), py::arg("threads"),
        py::arg("verify"), py::arg("schedule"), py::arg("init"));
  m.def("generate_packed", &generate_packed, py::arg("order"), py::arg("size"), py::arg("seed"), py::arg("noise"),
        py::arg("dtype"));
  m.def("stop_summary", &stop_summary, py::arg("reason"), py::arg("rule"), py::arg("sweeps"), py::arg("off_rel"),
        py::arg("tol"), py::arg("stall_tol"));
  m.def("kernel_source", &kernel_source, py::arg("order"), py::arg("size"), py::arg("kind"), py::arg("dtype"),
        py::arg("layout"), py::arg("rule"), py::arg("structure"));
}
