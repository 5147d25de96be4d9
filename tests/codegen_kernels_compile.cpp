// Every kernel kind compiles with NVRTC for sm_90 (runtime::compile_cubin, as the GPU engine
// compiles them), without a warning and with every kernel its entries name: all kinds in both
// dtypes with both built-in rules, and every kind for every listed D in {3, 4, 5, 9} and N in
// {2, 3, 8, 16, 128} it serves -- all of them but (9, 128), whose 2^63 entries codegen rejects
// (codegen_kernel_spec.cpp), except that small_tensor and multi_mode_product take only tensors
// that fit one block's shared memory and qubit_sweep only N = 2 with D >= 20 (compiled at its own
// orders, 20 to 36, below). NVRTC needs no GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "codegen/kernel_source.hpp"
#include "kind_sample_shape.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"

using namespace tensordiag;
using namespace tensordiag::codegen;

namespace {

constexpr int orders[] = {3, 4, 5, 9};
constexpr int sizes[] = {2, 3, 8, 16, 128};
constexpr const char* dtypes[] = {"float32", "float64"};
constexpr const char* rules[] = {"max_diag", "max_trace"};

struct Case {
  std::string kind;
  int order;
  int size;
  std::string dtype;
  std::string layout;
  std::string rule;
  bool symmetric = false;  // KernelSpec::symmetric
  bool skew = false;       // KernelSpec::skew
  int packed_max_orbit = -1;  // Tuning::packed_max_orbit
  int pivot_gram_size = -1;   // Tuning::pivot_gram_size
  int subspace_fused = -1;    // Tuning::subspace_fused

  KernelSpec spec() const {
    KernelSpec spec = make_kernel_spec(kind, order, size, dtype, layout, rule);
    spec.symmetric = symmetric;
    spec.skew = skew;
    spec.tuning.packed_max_orbit = packed_max_orbit;
    spec.tuning.pivot_gram_size = pivot_gram_size;
    spec.tuning.subspace_fused = subspace_fused;
    return spec;
  }
  std::string name() const { return program_name(spec()); }
};

struct Outcome {
  std::string error;  // empty when the source compiled cleanly with every entry
};

Outcome compile(const Case& c) {
  const KernelSpec spec = c.spec();
  try {
    const runtime::Cubin cubin =
        runtime::compile_cubin(kernel_source(spec), c.name(), {}, "sm_90", runtime::SourceOnError::attach);
    if (!cubin.log.empty()) return {"NVRTC warnings:\n" + cubin.log};
    for (const KernelEntry& entry : kernel_entries(spec))
      if (std::none_of(cubin.kernels.begin(), cubin.kernels.end(),
                       [&](const runtime::KernelResources& k) { return k.name == entry.name; }))
        return {"the cubin lacks the kernel " + entry.name};
    return {};
  } catch (const runtime::CompileError& e) {
    return {e.what()};
  }
}

// Two at a time: NVRTC compiles separate programs concurrently.
void check_compiles(const std::vector<Case>& cases) {
  std::vector<Outcome> outcomes(cases.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (int j = 0; j < 2; ++j)
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < cases.size(); i = next++) outcomes[i] = compile(cases[i]);
    });
  for (auto& worker : workers) worker.join();
  for (std::size_t i = 0; i < cases.size(); ++i) CHECK_MESSAGE(outcomes[i].error.empty(), cases[i].name(), "\n", outcomes[i].error);
}

// Case i of a list cycles dtype, layout and rule, so each combination of them appears.
Case cycled(const std::string& kind, int order, int size, int i) {
  return {kind, order, size, dtypes[i % 2], i % 4 < 2 ? "C" : "F", rules[(i / 2) % 2]};
}

}  // namespace

TEST_CASE("every kernel kind compiles in float32 and float64 with max_diag and max_trace") {
  std::vector<Case> cases;
  for (const auto& kind : kernel_kinds())
    for (const char* dtype : dtypes)
      for (const char* rule : rules) {
        const auto [order, size] = tensordiag::testing::sample_shape(kind, 4, 5);
        cases.push_back({kind, order, size, dtype, std::string(dtype) == "float32" ? "C" : "F", rule});
      }
  check_compiles(cases);
}

TEST_CASE("every kernel kind compiles for every listed D and N it serves") {
  std::vector<Case> cases;
  for (const auto& kind : kernel_kinds())
    for (const int order : orders)
      for (const int size : sizes) {
        if (order == 9 && size == 128) continue;
        const Case c = cycled(kind, order, size, static_cast<int>(cases.size()));
        try {
          kernel_entries(c.spec());
          cases.push_back(c);
        } catch (const codegen_error& e) {
          // Only the whole-tensor-in-a-block kinds turn shapes away (too large for shared memory),
          // the XOR subspace kinds (N not a power of two, or cells over the shared memory), and
          // qubit_sweep all of these (D < 20).
          CHECK_MESSAGE((kind == "small_tensor" || kind == "multi_mode_product" || kind == "qubit_sweep" ||
                         kind == "subspace_angles" || kind == "subspace_apply"),
                        c.name(), ": ", e.what());
        }
      }
  CHECK(cases.size() >= 6 * 19 + 12);
  check_compiles(cases);
}

// The symmetric angles' root finder keeps arrays of (2D + 1)^2 doubles a thread: the orders a
// symmetric run on the general engine reaches with small N (the N = 2 engine declines symmetric).
TEST_CASE("symmetric_angles compiles at large orders, both dtypes and layouts") {
  std::vector<Case> cases;
  for (const int order : {6, 12, 16, 24}) cases.push_back(cycled("symmetric_angles", order, order <= 12 ? 3 : 2, order));
  check_compiles(cases);
}

// packed_symmetric (a symmetric tensor in packed storage): orders 2 to 12 (a class of D slots is D + 1
// registers and its rotation's power (D + 1)^2 doubles), N = 2 (no other indices) to 64, with a
// group's orbits in one launch (packed_group) where they hold at most 16 entries (the default
// Tuning::packed_max_orbit), else a launch a pair (packed_rotate), and each shape the other way
// too; order 13 refused.
TEST_CASE("packed_symmetric compiles at orders 2 to 12 both ways and refuses order 13") {
  std::vector<Case> cases;
  int i = 0;
  for (const auto& [order, size, group] : {std::tuple{2, 9, true}, {3, 64, true}, {4, 16, true}, {8, 2, true},
                                           {6, 16, false}, {10, 8, false}, {12, 4, false}, {12, 16, false}}) {
    Case c = cycled("packed_symmetric", order, size, i++);
    c.rule = "max_diag";
    const auto names = [&c] {
      std::vector<std::string> out;
      for (const KernelEntry& entry : kernel_entries(c.spec())) out.push_back(entry.name);
      return out;
    };
    CHECK(names() == std::vector<std::string>{"packed_angles", group ? "packed_group" : "packed_rotate", "packed_factor",
                                              "packed_figures", "packed_figures_final"});
    cases.push_back(c);
    // The other way: always a launch a pair, or orbits of up to 4096 entries.
    c.packed_max_orbit = group ? 0 : 4096;
    CHECK(names()[1] == (group ? "packed_rotate" : "packed_group"));
    if (order <= 10) cases.push_back(c);
  }
  check_compiles(cases);
  CHECK_THROWS_WITH_AS(make_kernel_spec("packed_symmetric", 13, 2, "float64", "C", "max_diag"),
                       "codegen_error: packed_symmetric takes order D <= 12 (order 13): larger classes rotate in long double, on the CPU",
                       codegen_error);
}

// lambda_norm's Cholesky test (stages 2 and 3) up to Lambda's largest register size, M = 128, with
// the tuning's limit at 128 (the default stops at 64): S and the factor in the register tile, Lambda
// copied to M rows of 32 ceil(M / 32) doubles of dynamic shared memory; at limit 0 neither.
TEST_CASE("lambda_norm's Cholesky test compiles up to M = 128 with dynamic shared memory for Lambda's copy") {
  std::vector<Case> cases;
  int i = 0;
  for (const auto& [size, dtype, m] : {std::tuple{65, "float32", 65}, {100, "float64", 100}, {128, "float32", 128},
                                       {64, "complex64", 128}, {40, "complex128", 80}}) {
    for (const int limit : {128, 0}) {
      Case c = cycled("lambda_norm", 3, size, i++);
      c.dtype = dtype;
      c.rule = "max_diag";
      c.pivot_gram_size = limit;
      CAPTURE(c.name());
      const auto plan = std::get<LambdaNormPlan>(plan_kernel(c.spec()).kind_plan);
      const KernelEntry entry = kernel_entries(c.spec()).front();
      CHECK(plan.gram == (limit == 128));
      CHECK(entry.dynamic_shared_bytes == (limit == 128 ? m * 32LL * ((m + 31) / 32) * 8 : 0));
      cases.push_back(c);
    }
  }
  check_compiles(cases);
}

// small_tensor's structure-skew variant (the one-block skew run): shapes with and without leftover
// indices, one block (N = D) up to many, both dtypes and layouts; N < D and other kinds refused.
TEST_CASE("small_tensor's skew variant compiles for the skew shapes it serves") {
  std::vector<Case> cases;
  int i = 0;
  for (const auto& [order, size] : {std::pair{3, 3}, {3, 7}, {3, 12}, {4, 5}, {4, 7}, {5, 5}}) {
    Case c = cycled("small_tensor", order, size, i++);
    c.rule = "max_diag";
    c.skew = true;
    cases.push_back(c);
  }
  check_compiles(cases);
  KernelSpec spec = make_kernel_spec("small_tensor", 4, 3, "float64", "C", "max_diag");
  spec.skew = true;
  CHECK_THROWS_AS(kernel_entries(spec), codegen_error);
  spec = make_kernel_spec("group_pass", 3, 6, "float64", "C", "max_diag");
  spec.skew = true;
  CHECK_THROWS_AS(kernel_entries(spec), codegen_error);
}

TEST_CASE("qubit_sweep compiles for N = 2 at every order it serves, both dtypes and layouts") {
  std::vector<Case> cases;
  for (int order = 20; order <= 36; ++order) cases.push_back(cycled("qubit_sweep", order, 2, order));
  check_compiles(cases);
  for (const int order : {19, 37}) CHECK_THROWS_AS(kernel_entries(make_kernel_spec("qubit_sweep", order, 2, "float32", "C", "max_diag")), codegen_error);
  CHECK_THROWS_AS(kernel_entries(make_kernel_spec("qubit_sweep", 20, 3, "float32", "C", "max_diag")), codegen_error);
}

// Complex N = 2 tensors (U in SU(2) a mode): a row is at least one tile of 16-byte loads (2^9
// complex64 or 2^8 complex128 entries) and the high half at most 18 bits (its weight tables of
// complex pairs in 32 KB): complex64 D = 18..34, complex128 D = 16..34, both layouts.
TEST_CASE("qubit_sweep compiles for complex N = 2 at every order it serves") {
  std::vector<Case> cases;
  for (int order = 16; order <= 34; ++order)
    for (const char* dtype : {"complex64", "complex128"}) {
      if (std::string(dtype) == "complex64" && order < 18) continue;
      cases.push_back({"qubit_sweep", order, 2, dtype, cases.size() % 2 == 0 ? "C" : "F", "max_diag"});
    }
  check_compiles(cases);
  for (const auto& [order, dtype] : std::vector<std::pair<int, const char*>>{
           {17, "complex64"}, {35, "complex64"}, {15, "complex128"}, {35, "complex128"}})
    CHECK_THROWS_WITH_AS(kernel_entries(make_kernel_spec("qubit_sweep", order, 2, dtype, "C", "max_diag")),
                         doctest::Contains("is outside"), codegen_error);
  CHECK_THROWS_WITH_AS(kernel_entries(make_kernel_spec("qubit_sweep", 20, 2, "complex64", "C", "max_trace")),
                       doctest::Contains("real-only"), codegen_error);
}

// The complex kinds (issue 11, item 3): the general engine's angles (both forms) and passes, the
// pivot check's Lambda and its norm, the figures, the one-block run, the XOR subspace passes and
// the device verification's mode products, for complex64 and complex128, both layouts, at every
// listed D and N they serve (pivot_angles up to the subtensor its warp holds, group_pass up to its
// tile, multi_mode_product up to its shared memory), and structure symmetric's angles
// (symmetric_angles: the unitary step at order 3, the host step's sums from order 4); every other
// kind, and max_trace's angles, refuse a complex spec with a reason.
TEST_CASE("the complex kernel kinds compile in complex64 and complex128, the others refuse complex") {
  std::vector<Case> cases;
  int served = 0;
  for (const auto& kind : kernel_kinds())
    for (const int order : orders)
      for (const int size : sizes) {
        if (order == 9 && size == 128) continue;
        const int i = static_cast<int>(cases.size());
        const Case c{kind, order, size, i % 2 == 0 ? "complex64" : "complex128", i % 4 < 2 ? "C" : "F", "max_diag"};
        const bool complex_kind = kind == "pivot_angles" || kind == "pivot_angles_split" || kind == "pivot_check_gather" ||
                                  kind == "lambda_norm" ||
                                  kind == "group_pass" ||
                                  kind == "chunk_pass" || kind == "off_norm" || kind == "small_tensor" ||
                                  kind == "subspace_angles" || kind == "subspace_apply" || kind == "mode_product" ||
                                  kind == "multi_mode_product" || kind == "qubit_sweep" || kind == "symmetric_angles";
        // What a refusal must say: a complex kind refuses for another reason than the dtype.
        const std::string refusal = complex_kind ? "" : "takes real dtypes";
        try {
          kernel_entries(c.spec());
          CHECK_MESSAGE(complex_kind, c.name(), " was planned");
          cases.push_back(c);
          ++served;
        } catch (const codegen_error& e) {
          const std::string why = e.what();
          CHECK_MESSAGE((complex_kind ? why.find("complex") == std::string::npos : why.find(refusal) != std::string::npos),
                        c.name(), ": ", why);
        }
      }
  CHECK(served >= 5 * 19);  // the general kinds at most of the 19 shapes, small_tensor at the small ones
  check_compiles(cases);
  CHECK_THROWS_WITH_AS(kernel_entries(make_kernel_spec("pivot_angles", 4, 8, "complex64", "C", "max_trace")),
                       doctest::Contains("real-only"), codegen_error);
}

// Complex symmetric tensors from order 4 take their step on the host (symmetric_step_on_host):
// symmetric_angles then defines symmetric_pivot_sums alone, a block a chunk of a pair's 2^D
// entries, at the orders the general engine runs them with small N (up to N = 2, D = 30: 2^30
// entries a pair in 2048 chunks), both dtypes and layouts; orders 2 and 3 keep symmetric_angles.
TEST_CASE("complex symmetric_angles from order 4 is symmetric_pivot_sums, chunked, at every order") {
  std::vector<Case> cases;
  int i = 0;
  for (const auto& [order, size, chunks] : std::vector<std::tuple<int, int, long long>>{
           {3, 8, 0}, {4, 16, 1}, {6, 5, 1}, {9, 3, 1}, {12, 3, 1}, {16, 2, 8}, {24, 2, 2048}, {30, 2, 2048}})
    for (const char* dtype : {"complex64", "complex128"}) {
      const Case c{"symmetric_angles", order, size, dtype, i++ % 2 == 0 ? "C" : "F", "max_diag"};
      CAPTURE(c.name());
      const KernelPlan plan = plan_kernel(c.spec());
      REQUIRE(plan.entries.size() == 1);
      CHECK(plan.entries[0].name == (order <= 3 ? "symmetric_angles" : "symmetric_pivot_sums"));
      const auto& angles = std::get<SymmetricAnglesPlan>(plan.kind_plan);
      CHECK(angles.host_step == (order > 3));
      if (order > 3) {
        CHECK(angles.chunks == chunks);
        CHECK(plan.entries[0].grid_blocks == (size / 2) * chunks);
      }
      if (order <= 24) cases.push_back(c);
    }
  check_compiles(cases);
}

// The split angles in complex arithmetic at the orders whose pivot subtensors are over a warp's
// shared memory (complex64 from D = 13, complex128 from D = 12), where the engine takes them: N = 2
// up to D = 24, N = 3 and 4, both dtypes and layouts; and with the chunked pass they run beside.
TEST_CASE("the complex split angles and chunked pass compile at the orders that take them") {
  std::vector<Case> cases;
  int i = 0;
  for (const auto& [order, size] : std::vector<std::pair<int, int>>{{12, 2}, {13, 2}, {16, 2}, {20, 2}, {24, 2},
                                                                    {12, 3}, {14, 3}, {16, 3}, {12, 4}})
    for (const char* dtype : {"complex64", "complex128"}) {
      if (std::string(dtype) == "complex64" && order == 12) continue;  // its subtensor fits: pivot_angles
      for (const char* kind : {"pivot_angles_split", "chunk_pass"})
        cases.push_back({kind, order, size, dtype, i++ % 2 == 0 ? "C" : "F", "max_diag"});
      CHECK_THROWS_WITH_AS(kernel_entries(make_kernel_spec("pivot_angles", order, size, dtype, "C", "max_diag")),
                           doctest::Contains("exceeds the shared memory"), codegen_error);
    }
  check_compiles(cases);
}

// Order 2, structure symmetric (the Jacobi eigenvalue method on the GPU): the symmetric angles,
// the passes and the figures compile for matrices of every listed size and the spin chains'
// sector sizes, both dtypes and layouts. group_pass is planned (and then compiles: its plan counts
// every shared array the kernel declares, which at N = 1716 float64 leaves it one register row a
// round) or refused for the shared memory, where the engine takes chunk_pass.
TEST_CASE("the symmetric matrix kinds compile at D = 2") {
  std::vector<Case> cases;
  int refused = 0;
  for (const char* kind : {"symmetric_angles", "group_pass", "chunk_pass", "off_norm", "mode_product"})
    for (const int size : {2, 3, 8, 128, 255, 1716, 4096}) {
      const Case c = cycled(kind, 2, size, static_cast<int>(cases.size()) + refused);
      if (const PlanAttempt attempt = try_plan(c.spec()); !attempt.plan) {
        CHECK_MESSAGE(std::string(kind) == "group_pass", c.name(), ": ", attempt.refusal);
        CHECK_MESSAGE(attempt.refusal.find("shared memory") != std::string::npos, attempt.refusal);
        ++refused;
        continue;
      }
      cases.push_back(c);
    }
  CHECK(refused >= 1);  // group_pass at N = 4096 (its index tables alone are 40 KB)
  cases.push_back({"group_pass", 2, 1716, "float64", "C", "max_diag"});  // past 48 KB before its plan counted them all
  check_compiles(cases);
}

// Structure symmetric's variants (KernelSpec::symmetric: one rotation a pair in every mode, by
// dsl/symmetric_angle.hpp) and subspace_apply (the tiles of non-decreasing cosets, each written to
// every arrangement) compile at every listed D and N they serve, both dtypes and layouts; every
// other kind, and complex dtypes above order 3, refuse the flag.
TEST_CASE("structure symmetric's small_tensor, subspace_angles and subspace_apply compile, other kinds and complex "
          "order 4 refuse it") {
  std::vector<Case> cases;
  for (const char* kind : {"small_tensor", "subspace_angles", "subspace_apply"})
    for (const int order : orders)
      for (const int size : sizes) {
        Case c = cycled(kind, order, size, static_cast<int>(cases.size()));
        c.rule = "max_diag";
        c.symmetric = true;
        if (order == 9 && size == 128) continue;  // beyond 64-bit addressing
        if (try_plan(c.spec()).plan) cases.push_back(c);
      }
  CHECK(std::count_if(cases.begin(), cases.end(), [](const Case& c) { return c.kind == "subspace_apply"; }) >= 6);
  CHECK(cases.size() >= 16);
  check_compiles(cases);
  for (const char* kind : {"group_pass", "pivot_angles", "symmetric_angles"}) {
    KernelSpec spec = make_kernel_spec(kind, 3, 8, "float64", "C", "max_diag");
    spec.symmetric = true;
    CHECK_THROWS_WITH_AS(validate(spec), doctest::Contains("variant of small_tensor, subspace_angles and subspace_apply only"),
                         codegen_error);
  }
  KernelSpec complex = make_kernel_spec("small_tensor", 4, 4, "complex128", "C", "max_diag");
  complex.symmetric = true;
  CHECK_THROWS_WITH_AS(validate(complex), doctest::Contains("takes order 2 or 3 in small_tensor, not 4"), codegen_error);
}

// subspace_apply with its outer modes fused to the store (1) and to the load too (2): every dtype,
// cells of 4 and 8, orders 3 to 6, and structure symmetric unmirrored.
TEST_CASE("subspace_apply compiles with its first and last outer modes fused with the load and store") {
  struct Shape {
    int order, size;
    const char* dtype;
  };
  std::vector<Case> cases;
  for (const int fused : {1, 2})
    for (const auto& [order, size, dtype] : {Shape{3, 8, "complex128"}, {3, 128, "float32"}, {4, 16, "complex64"},
                                             {4, 64, "float64"}, {5, 32, "float32"}, {6, 16, "float32"}}) {
      Case c{"subspace_apply", order, size, dtype, cases.size() % 3 ? "C" : "F", "max_diag"};
      c.subspace_fused = fused;
      c.symmetric = order == 3 && size == 128;
      const PlanAttempt attempt = try_plan(c.spec());
      REQUIRE_MESSAGE(attempt.plan, c.name(), ": ", attempt.refusal);
      CHECK(std::get<SubspaceApplyPlan>(attempt.plan->kind_plan).fused == fused);
      cases.push_back(c);
    }
  check_compiles(cases);
  CHECK(kernel_source(cases.back().spec()).find("inline constexpr int FUSED = MIRRORED ? 0 : 2;") != std::string::npos);
}

// Complex symmetric tensors (one unitary U) on the general engine: symmetric_angles of a complex
// dtype (dsl/symmetric_unitary_angle.hpp's step) compiles at orders 2 and 3, both complex dtypes
// and layouts, even and odd N, with the pass and figures an order-2 run loads, and so do the
// symmetric variants of subspace_angles, subspace_apply and small_tensor at order 3; those variants refuse order 4
// (symmetric_angles leaves its step to the host there: the test before).
TEST_CASE("symmetric_angles of a complex dtype compiles at orders 2 and 3, the symmetric variants refuse order 4") {
  std::vector<Case> cases;
  for (const int order : {2, 3})
    for (const int size : {2, 7, 16, 255})
      for (const char* dtype : {"complex64", "complex128"})
        cases.push_back({"symmetric_angles", order, size, dtype, cases.size() % 2 ? "F" : "C", "max_diag"});
  for (const char* kind : {"group_pass", "off_norm"}) cases.push_back({kind, 2, 9, "complex128", "C", "max_diag"});
  // The XOR subspace passes' angles (a cell of 8 or 4 a mode: the spec's N) and the one-block kernel with the
  // unitary step: their symmetric variants.
  for (const auto& [kind, size] :
       {std::pair{"subspace_angles", 8}, {"subspace_angles", 4}, {"small_tensor", 4}, {"subspace_apply", 32}})
    for (const char* dtype : {"complex64", "complex128"}) {
      Case c{kind, 3, size, dtype, "C", "max_diag"};
      c.symmetric = true;
      const PlanAttempt attempt = try_plan(c.spec());
      CHECK_MESSAGE(attempt.plan, c.name(), ": ", attempt.refusal);
      if (attempt.plan) cases.push_back(c);
    }
  check_compiles(cases);
  const std::string source = kernel_source(cases.front().spec());
  CHECK(source.find("symmetric_unitary_rotation") != std::string::npos);
  CHECK(source.find("---- symmetric_warp_angle.cuh") == std::string::npos);  // the real root finder is not there
  KernelSpec cells = make_kernel_spec("subspace_angles", 4, 4, "complex64", "C", "max_diag");
  cells.symmetric = true;
  CHECK_THROWS_WITH_AS(validate(cells), doctest::Contains("takes order 2 or 3 in subspace_angles, not 4"), codegen_error);
  const std::string host_step = kernel_source(make_kernel_spec("symmetric_angles", 4, 3, "complex64", "C", "max_diag"));
  CHECK(host_step.find("#define SYMMETRIC_HOST_STEP 1") != std::string::npos);
  CHECK(host_step.find("---- symmetric_unitary_angle.hpp") == std::string::npos);  // no closed form: the host's step
}
