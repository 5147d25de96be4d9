// KernelSpec construction and validation, the kinds, the launch shapes, and the source's
// determinism and header (what the CLI's `tensordiag kernels` shows).
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "codegen/builtin_rules.hpp"
#include "codegen/codegen_error.hpp"
#include "codegen/kernel_source.hpp"
#include "codegen/lower_rule.hpp"
#include "kind_sample_shape.hpp"
#include "tests/custom_rules.hpp"

using namespace tensordiag;
using namespace tensordiag::codegen;

namespace {

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const codegen_error& e) {
    return e.what();
  }
  return "(no codegen_error)";
}

}  // namespace

TEST_CASE("kernel_kinds lists every kind, each parses back") {
  const auto kinds = kernel_kinds();
  CHECK(kinds == std::vector<std::string>{"pivot_angles", "pivot_angles_split", "pivot_check_gather", "group_pass",
                                          "chunk_pass", "off_norm", "mode_product", "multi_mode_product",
                                          "small_tensor", "lambda_norm", "qubit_sweep", "subspace_angles",
                                          "subspace_apply", "symmetric_angles", "skew_angles",
                                          "packed_symmetric"});
  for (const auto& kind : kinds) CHECK(to_string(parse_kernel_kind(kind)) == kind);
  CHECK(contains(error_of([] { parse_kernel_kind("gemm"); }), "unknown kernel kind 'gemm'"));
}

TEST_CASE("make_kernel_spec parses the CLI's names") {
  const KernelSpec spec = make_kernel_spec("group_pass", 4, 6, "float64", "F", "max_trace");
  CHECK(spec.kind == KernelKind::group_pass);
  CHECK(spec.order == 4);
  CHECK(spec.size == 6);
  CHECK(spec.dtype == ScalarType::float64);
  CHECK(spec.layout == dsl::Layout::fortran_order);
  CHECK(spec.rule.name == "max_trace");
  CHECK(contains(error_of([] { make_kernel_spec("group_pass", 3, 4, "float16", "C", "max_diag"); }), "float16"));
  CHECK(contains(error_of([] { make_kernel_spec("group_pass", 3, 4, "float32", "K", "max_diag"); }), "layout 'K'"));
  CHECK(contains(error_of([] { make_kernel_spec("group_pass", 3, 4, "float32", "C", "min_diag"); }), "min_diag"));
}

TEST_CASE("specs the kernels cannot serve are rejected with a reason") {
  CHECK(contains(error_of([] { make_kernel_spec("pivot_angles", 2, 4, "float32", "C", "max_diag"); }), "use an SVD"));
  // A symmetric matrix's kinds take D = 2 (the Jacobi eigenvalue method on the GPU).
  for (const char* kind : {"symmetric_angles", "group_pass", "chunk_pass", "off_norm", "mode_product"})
    CHECK(!kernel_entries(make_kernel_spec(kind, 2, 6, "float64", "C", "max_diag")).empty());
  CHECK(contains(error_of([] { make_kernel_spec("group_pass", 3, 1, "float32", "C", "max_diag"); }), "N >= 2"));
  // 128^9 = 2^63 entries: past 64-bit addressing, so the listed (D, N) = (9, 128) is not generated.
  CHECK(contains(error_of([] { make_kernel_spec("pivot_angles", 9, 128, "float32", "C", "max_diag"); }),
                 "beyond 64-bit addressing"));
  Tuning tuning;
  tuning.block_size = 100;
  CHECK(contains(error_of([&] { make_kernel_spec("off_norm", 3, 4, "float32", "C", "max_diag", tuning); }),
                 "block_size 100"));
  // The whole-tensor-in-a-block kinds need the tensor to fit in shared memory.
  CHECK(contains(error_of([] { kernel_source(make_kernel_spec("small_tensor", 5, 8, "float32", "C", "max_diag")); }),
                 "use the group kernels"));
  CHECK(contains(
      error_of([] { kernel_source(make_kernel_spec("multi_mode_product", 4, 16, "float64", "C", "max_diag")); }),
      "chain mode_product"));
  // A pivot subtensor of 2^13 doubles is 64 KiB: no warp can hold one in 48 KiB.
  CHECK(contains(error_of([] { kernel_source(make_kernel_spec("pivot_angles", 13, 2, "float64", "C", "max_diag")); }),
                 "pivot subtensor"));
}

TEST_CASE("the source is deterministic and its header names the kind, rule, shape, dtype, layout, template") {
  const KernelSpec spec = make_kernel_spec("pivot_angles", 5, 6, "float32", "F", "max_diag");
  const std::string source = kernel_source(spec);
  CHECK(source == kernel_source(make_kernel_spec("pivot_angles", 5, 6, "float32", "F", "max_diag")));
  const std::string header = source.substr(0, source.find("// ----"));
  CHECK(contains(header, "kind      pivot_angles"));
  CHECK(contains(header, "rule      max_diag: maximize sq(a*c + b*s) + sq(d*c - e*s)"));
  CHECK(contains(header, "rotation  2*phi = atan2("));
  CHECK(contains(header, "D = 5, N = 6, layout F"));
  CHECK(contains(header, "dtype     float32 (float)"));
  CHECK(contains(header, "kernels_templates/pivot_angles.cu"));
  CHECK(contains(header, "pivot_angles<<<1, 96>>>"));
  // Shapes and strides are compile-time constants; Fortran order puts mode 0 innermost.
  CHECK(contains(source, "inline constexpr int D = 5;"));
  CHECK(contains(source, "inline constexpr int N = 6;"));
  CHECK(contains(source, "STRIDE[D] = {1, 6, 36, 216, 1296};"));
  CHECK(contains(source, "MODE_OF_MEMORY_MODE[D] = {4, 3, 2, 1, 0};"));
  CHECK_FALSE(contains(source, "${"));
}

TEST_CASE("each source defines the extern \"C\" kernels its entries name, with their block sizes") {
  for (const auto& kind : kernel_kinds()) {
    const auto [order, size] = tensordiag::testing::sample_shape(kind, 3, 5);
    const KernelSpec spec = make_kernel_spec(kind, order, size, "float64", "C", "max_trace");
    const std::string source = kernel_source(spec);
    const auto entries = kernel_entries(spec);
    REQUIRE(!entries.empty());
    for (const KernelEntry& entry : entries) {
      CHECK_MESSAGE(std::regex_search(source, std::regex("extern \"C\" __global__ void __launch_bounds__\\([A-Z_]+(, [0-9]+)?\\)\n" +
                                                         entry.name + "\\(")),
                    entry.name);
      CHECK(entry.block_threads % 32 == 0);
      CHECK(entry.grid_blocks >= 1);
    }
    CHECK_EQ(contains(source, "rule_rotation("),
             kind == "pivot_angles" || kind == "pivot_angles_split" || kind == "pivot_check_gather" ||
                 kind == "lambda_norm" || kind == "small_tensor" || kind == "qubit_sweep" ||
                 kind == "subspace_angles" || kind == "skew_angles");
  }
}

TEST_CASE("launch shapes follow the shape") {
  const auto angles = kernel_entries(make_kernel_spec("pivot_angles", 3, 128, "float32", "C", "max_diag"));
  CHECK(angles[0].block_threads == 256);  // 8 warps, one pair each
  CHECK(angles[0].grid_blocks == 8);      // 64 pairs
  const auto pass = kernel_entries(make_kernel_spec("group_pass", 3, 128, "float32", "C", "max_diag"));
  // 64^2 orbit tiles of 4 rows of 128 entries, 64 threads each (2 positions per thread, 4
  // registers), 8 tiles per block of 512: 512 pass blocks; then 3 * 64 * 128 factor rows / 512.
  CHECK(pass[0].block_threads == 512);
  CHECK(pass[0].grid_blocks == 512 + 48);
  const auto small = kernel_entries(make_kernel_spec("small_tensor", 3, 8, "float64", "C", "max_diag"));
  CHECK(small[0].per_tensor);
  CHECK(small[0].grid_blocks == 1);
}

TEST_CASE("group_pass: blocks of 128 threads for tensors of at most 2^21 entries with N even, 6..16, and for complex ones of N >= 4 from 256 MB, else 512 / 256") {
  // The pass's threads a block under the default tuning, or with pass_block_size asked.
  const auto pass_threads = [](int order, int size, const char* dtype, int asked = 0) {
    codegen::Tuning tuning;
    tuning.pass_block_size = asked;
    return kernel_entries(make_kernel_spec("group_pass", order, size, dtype, "C", "max_diag", tuning))[0].block_threads;
  };
  for (const char* dtype : {"float32", "float64", "complex64", "complex128"}) {
    CAPTURE(std::string(dtype));
    for (const auto& [order, size] : {std::pair{5, 8}, {7, 8}, {4, 12}, {5, 16}, {6, 6}, {4, 14}}) {
      CAPTURE(order);
      CAPTURE(size);
      CHECK(pass_threads(order, size, dtype) == 128);  // 2^21 entries at most (7 x 8: just so)
    }
    // Outside the rule the blocks the plan chose before, where whole tiles of 512 threads (real) or
    // 256 (complex) fit the shared memory: 2^24 entries (complex64 128 MB), N = 4, odd N, N > 16.
    const bool complex = std::string(dtype).starts_with("complex");
    const int old_target = complex ? 256 : 512;
    for (const auto& [order, size] : {std::pair{8, 8}, {9, 4}, {5, 7}, {3, 18}}) {
      CAPTURE(order);
      CAPTURE(size);
      if (std::string(dtype) == "complex128" && order == 8) continue;  // 256 MB: wide_complex_pass's, below
      CHECK(pass_threads(order, size, dtype) == pass_threads(order, size, dtype, old_target));
    }
    // Complex tensors of N >= 4 from 256 MB: blocks of 128 threads (one tile of 128 threads with
    // R = 4 at 9 x 8, two of 64 at complex128 8 x 8), or the tile where it is larger (10 x 6: 192).
    if (complex) {
      CHECK(pass_threads(9, 8, dtype) == 128);
      CHECK(pass_threads(10, 6, dtype) == 192);
      CHECK(pass_threads(10, 4, dtype) == 256);  // 2^20 entries: the old plan
    }
  }
  CHECK(pass_threads(8, 8, "complex128") == 128);  // 256 MB
  CHECK(pass_threads(8, 8, "complex64") == 256);   // 128 MB: the old plan
  CHECK(pass_threads(5, 8, "float32", 64) == 64);  // an asked-for size wins over the rule
}

TEST_CASE("a custom DSL rule generates through the templated make_kernel_spec") {
  const KernelSpec spec = make_kernel_spec(KernelKind::small_tensor, 3, 4, ScalarType::float64, dsl::Layout::c_order,
                                           test_rules::weighted);
  const std::string source = kernel_source(spec);
  CHECK(contains(source, "rule      weighted: maximize 3*sq(a*c + b*s) + sq(d*c - e*s)/2"));
  CHECK(contains(source, "return tensordiag::dsl::givens_from_double_angle("));
  const KernelSpec angle = make_kernel_spec(KernelKind::pivot_angles, 3, 4, ScalarType::float32, dsl::Layout::c_order,
                                            test_rules::every_operation);
  CHECK(contains(kernel_source(angle), "return tensordiag::dsl::Givens<float>{cosf("));
}

TEST_CASE("program_name names every field of the spec but the tuning") {
  CHECK(program_name(make_kernel_spec("group_pass", 3, 64, "float32", "C", "max_diag")) ==
        "group_pass_d3_n64_float32_C_max_diag.cu");
  CHECK(program_name(make_kernel_spec("off_norm", 9, 8, "float64", "F", "max_trace")) ==
        "off_norm_d9_n8_float64_F_max_trace.cu");
}

TEST_CASE("every_kind_source: each kind's source, or the reason it cannot serve the shape") {
  // 64^3 float32 entries are 1 MiB: too large for one block, so the whole-tensor kinds refuse them
  // (and subspace_angles, whose cell is the spec's whole tensor; qubit_sweep every N but 2).
  const auto sources = every_kind_source(make_kernel_spec("off_norm", 3, 64, "float32", "C", "max_diag"));
  REQUIRE(sources.size() == kernel_kinds().size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const KindSource& kind = sources[i];
    const std::string name(to_string(kind.spec.kind));
    CHECK(name == kernel_kinds()[i]);
    const bool refuses =
        name == "small_tensor" || name == "multi_mode_product" || name == "qubit_sweep" || name == "subspace_angles";
    CHECK_MESSAGE(kind.generated() == !refuses, name, ": ", kind.refusal);
    if (kind.generated()) CHECK(kind.source == kernel_source(kind.spec));
    else CHECK((kind.source.empty() && contains(kind.refusal, "codegen_error: " + name)));
  }
  CHECK(contains(error_of([] { every_kind_source(KernelSpec{KernelKind::pivot_angles, 2, 4, ScalarType::float32,
                                                            dsl::Layout::c_order, lower_builtin_rule("max_diag"), {}}); }),
                 "use an SVD"));
}

TEST_CASE("the XOR subspace kinds: cells of 8 where the tile fits 100 KB, else 4, asked-for cells up to the device's opt-in") {
  auto apply_plan = [](int order, int size, const char* dtype, int bits, int opt_in = 227 * 1024) {
    Tuning tuning;
    tuning.subspace_bits = bits;
    tuning.opt_in_shared_bytes = opt_in;
    return try_plan(make_kernel_spec("subspace_apply", order, size, dtype, "C", "max_diag", tuning));
  };
  const auto d3 = apply_plan(3, 128, "float32", 0);
  REQUIRE(d3.plan);
  const auto& plan = std::get<SubspaceApplyPlan>(d3.plan->kind_plan);
  CHECK(plan.cell_bits == 3);
  CHECK(plan.tiles == 16 * 16);                  // one coset in each outer mode, all of the innermost
  CHECK(plan.block_scalars == 16 * 3 * 8 * 8);  // a block per coset and mode
  CHECK(std::get<SubspaceApplyPlan>(apply_plan(6, 16, "float32", 0).plan->kind_plan).cell_bits == 2);
  // Structure symmetric, mirrored: a block for each tile of non-decreasing outer cosets,
  // C(cosets + D - 2, D - 1) of them; not mirrored, every tile. By default mirrored from 2^24
  // entries where a tile has at most 24 arrangements ((D-1)! where the cosets allow).
  const auto symmetric_plan = [](int order, int size, int mirrored) {
    Tuning tuning;
    tuning.subspace_mirrored = mirrored;
    KernelSpec spec = make_kernel_spec("subspace_apply", order, size, "float32", "C", "max_diag", tuning);
    spec.symmetric = true;
    return std::get<SubspaceApplyPlan>(plan_kernel(spec).kind_plan);
  };
  CHECK(symmetric_plan(3, 128, 1).tiles == 16 * 17 / 2);  // cells of 8: 16 cosets, pairs c0 <= c1
  CHECK(symmetric_plan(3, 128, 0).tiles == 16 * 16);
  CHECK(!symmetric_plan(3, 128, -1).mirrored);            // 2^21 entries
  CHECK(symmetric_plan(4, 32, 1).tiles == 20);            // cells of 8: 4 cosets, C(6, 3)
  CHECK(symmetric_plan(5, 32, 1).tiles == 330);           // cells of 4: 8 cosets, C(11, 4)
  CHECK(symmetric_plan(5, 32, -1).mirrored);              // 2^25 entries, 4! arrangements
  CHECK(symmetric_plan(4, 64, -1).tiles == 816);          // 2^24 entries; cells of 4: 16 cosets, C(18, 3)
  // 2^24 entries, but 5! / (2! 1! 1! 1!) = 60 arrangements of 5 outer cosets out of 4 (cells of 4).
  CHECK(!symmetric_plan(6, 16, -1).mirrored);
  CHECK(symmetric_plan(6, 16, 1).tiles == 56);            // C(8, 5)
  // The last outer mode fused with the store from 2^24 entries, unless the tuning says otherwise.
  const auto fused = [&](int order, int size, const char* dtype) {
    return std::get<SubspaceApplyPlan>(apply_plan(order, size, dtype, 0).plan->kind_plan).fused;
  };
  CHECK(fused(3, 256, "float32") == 1);
  CHECK(fused(4, 64, "complex64") == 1);
  CHECK(fused(6, 16, "float32") == 1);
  CHECK(fused(3, 128, "float32") == 0);  // 2^21 entries
  CHECK(fused(5, 16, "complex128") == 0);
  // Mirrored tiles are stored row by row to every arrangement: never fused.
  {
    KernelSpec spec = make_kernel_spec("subspace_apply", 3, 256, "float32", "C", "max_diag");
    spec.symmetric = true;
    spec.tuning.subspace_mirrored = 1;
    spec.tuning.subspace_fused = 2;
    CHECK(std::get<SubspaceApplyPlan>(plan_kernel(spec).kind_plan).fused == 0);
    spec.tuning.subspace_mirrored = 0;
    CHECK(std::get<SubspaceApplyPlan>(plan_kernel(spec).kind_plan).fused == 2);
    spec.tuning.subspace_fused = 3;
    CHECK_THROWS_WITH_AS(validate(spec), doctest::Contains("subspace_fused 3"), codegen_error);
  }
  // The general apply is never mirrored.
  CHECK(!std::get<SubspaceApplyPlan>(apply_plan(5, 32, "float32", 0).plan->kind_plan).mirrored);
  // 4^5 x 16 float64 entries are 131 KB: over the default budget, within the opt-in when asked.
  CHECK(apply_plan(6, 16, "float64", 0).refusal.starts_with("subspace_apply: a tile of 4^5 x 16 entries needs"));
  CHECK(apply_plan(6, 16, "float64", 2).plan);
  // ... and within an A100's 163 KB opt-in a block, not a 64 KB one.
  CHECK(apply_plan(6, 16, "float64", 2, 163 * 1024).plan);
  CHECK(apply_plan(6, 16, "float64", 2, 64 * 1024).refusal.find("over the limit of 65536 bytes") != std::string::npos);
  // Against the opt-in limit the static arrays count too: 4^5 row starts of 8 bytes, 16 indices and
  // the (unused) coset int.
  const long long dynamic = std::get<SubspaceApplyPlan>(apply_plan(6, 16, "float64", 2).plan->kind_plan).dynamic_shared_bytes;
  const long long static_bytes = 1024 * 8 + 16 * 4 + 4;
  CHECK(apply_plan(6, 16, "float64", 2, static_cast<int>(dynamic + static_bytes)).plan);
  const std::string needs = "needs " + std::to_string(dynamic + static_bytes) + " bytes";
  CHECK(apply_plan(6, 16, "float64", 2, static_cast<int>(dynamic + static_bytes - 1)).refusal.find(needs) !=
        std::string::npos);
  CHECK(apply_plan(9, 8, "float32", 2).refusal.starts_with("subspace_apply: a tile of 4^8 x 8 entries needs"));
  CHECK(apply_plan(3, 6, "float32", 0).refusal.find("N a power of two") != std::string::npos);
  // The angles' source is specialized for the cell: a tensor of 2^k a mode.
  CHECK(try_plan(make_kernel_spec("subspace_angles", 3, 8, "float64", "C", "max_diag")).plan);
  CHECK(try_plan(make_kernel_spec("subspace_angles", 3, 6, "float64", "C", "max_diag")).refusal.find("2^k") !=
        std::string::npos);
}

TEST_CASE("chunk_pass: tiles of the most modes that fit, in launches of equal counts, the register form past them") {
  auto chunk_plan = [](int order, int size, const char* dtype, int tile_bytes) {
    Tuning tuning;
    tuning.chunk_tile_bytes = tile_bytes;
    const auto attempt = try_plan(make_kernel_spec("chunk_pass", order, size, dtype, "C", "max_diag", tuning));
    REQUIRE(attempt.plan);
    return std::get<ChunkPassPlan>(attempt.plan->kind_plan);
  };
  // The launches cover the memory modes in order, each count at most max_modes.
  auto covers = [](const ChunkPassPlan& plan, int order) {
    int next = 0;
    for (const auto& [first, count] : plan.chunks) {
      if (first != next || count < 1 || count > plan.max_modes) return false;
      next += count;
    }
    return next == order;
  };
  // N = 3, float32 by default: two buffers of 3^6 + 1 rows of 128 bytes fit 192 KB, of 3^7 + 1 do
  // not: 16 modes in 3 launches of 6, 5 and 5, a block of 1024 threads for the 729 x 32 entries.
  const ChunkPassPlan n3 = chunk_plan(16, 3, "float32", -1);
  CHECK(n3.run == 32);
  CHECK(n3.threads == 1024);
  CHECK(n3.max_modes == 6);
  CHECK(n3.tile_bytes == 2 * 730 * 32 * 4);
  CHECK(n3.chunks == std::vector<std::pair<int, int>>{{0, 6}, {6, 5}, {11, 5}});
  CHECK(covers(n3, 16));
  // Within 48 KB: 3^4 + 1 rows, 4 launches of 4, 256 threads.
  const ChunkPassPlan small = chunk_plan(16, 3, "float32", 48 * 1024);
  CHECK(small.threads == 256);
  CHECK(small.tile_bytes == 2 * 82 * 32 * 4);
  CHECK(small.chunks == std::vector<std::pair<int, int>>{{0, 4}, {4, 4}, {8, 4}, {12, 4}});
  // N = 2, float64 (runs of 16), tiles asked for: up to 7 modes; 30 modes in 5 launches of 6.
  const ChunkPassPlan n2 = chunk_plan(30, 2, "float64", 48 * 1024);
  CHECK(n2.run == 16);
  CHECK(n2.chunks == std::vector<std::pair<int, int>>{{0, 6}, {6, 6}, {12, 6}, {18, 6}, {24, 6}});
  CHECK(n2.tile_bytes == 2 * 65 * 16 * 8);
  // Even N by default: the register form (dense units), 6 modes a launch in float32.
  CHECK(chunk_plan(16, 4, "float32", -1).run == 0);
  CHECK(chunk_plan(16, 4, "float32", -1).chunks == std::vector<std::pair<int, int>>{{0, 6}, {6, 5}, {11, 5}});
  // A device that opts in to 64 KB a block (compute capability 7.5): the default and an asked
  // 192 KB both stop at 63 KB, so 3^5 + 1 rows at most and 16 modes in 4 launches of 4.
  for (const int tile_bytes : {-1, 192 * 1024}) {
    Tuning small_device;
    small_device.chunk_tile_bytes = tile_bytes;
    small_device.opt_in_shared_bytes = 64 * 1024;
    const auto capped = try_plan(make_kernel_spec("chunk_pass", 16, 3, "float32", "C", "max_diag", small_device));
    REQUIRE(capped.plan);
    CHECK(std::get<ChunkPassPlan>(capped.plan->kind_plan).chunks ==
          std::vector<std::pair<int, int>>{{0, 4}, {4, 4}, {8, 4}, {12, 4}});
  }
  // N = 2 in float32 up to 8 modes at 96 KB.
  CHECK(chunk_plan(31, 2, "float32", 96 * 1024).chunks == std::vector<std::pair<int, int>>{{0, 8}, {8, 8}, {16, 8}, {24, 7}});
  // No mode's tile fits: the register form, up to 6 modes in float32 (64 registers of 4 bytes).
  const ChunkPassPlan wide = chunk_plan(3, 801, "float32", -1);
  CHECK(wide.run == 0);
  CHECK(wide.tile_bytes == 0);
  CHECK(covers(wide, 3));
  const ChunkPassPlan asked = chunk_plan(16, 3, "float32", 0);
  CHECK(asked.run == 0);
  CHECK(asked.max_modes == 6);
  CHECK(asked.chunks == std::vector<std::pair<int, int>>{{0, 6}, {6, 5}, {11, 5}});
  // The tiled form's source and launch: its dynamic shared memory is the tile.
  const auto entries = kernel_entries(make_kernel_spec("chunk_pass", 16, 3, "float32", "C", "max_diag"));
  for (const auto& entry : entries)
    if (entry.name.starts_with("chunk_pass")) {
      CHECK(entry.dynamic_shared_bytes == 2 * 730 * 32 * 4);
      CHECK(entry.resident_grid);
    }
  CHECK(contains(kernel_source(make_kernel_spec("chunk_pass", 16, 3, "float32", "C", "max_diag")),
                 "inline constexpr bool TILED = true;"));
  Tuning negative;
  negative.chunk_tile_bytes = -2;
  CHECK(contains(error_of([&] { make_kernel_spec("chunk_pass", 16, 3, "float32", "C", "max_diag", negative); }),
                 "chunk_tile_bytes -2: use -1"));
}
