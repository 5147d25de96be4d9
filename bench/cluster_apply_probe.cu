// A measurement, not part of the engine (issue 15, N = 8, D = 9): can the apply pass of the XOR
// subspace schedule with cells of 4^9 entries run near the copy bandwidth when a thread-block
// cluster holds a cell in its blocks' shared memory? If it can, three subspace passes a sweep
// ({1, 2, 3}, {4, 5}, {6, 7}) replace today's seven group passes (docs/DESIGN.md, "Several groups a
// pass"); if not, the figure says by how much it falls short.
//
// The pass (DESIGN's formula): for every mode n and every cell, with V = {V[0] < .. < V[3]} and the
// cell's coset led by a in mode n,
//   C[.. a ^ V[j] @n ..] <- sum_i Q[n][a](i, j) C[.. a ^ V[i] @n ..],
// every mode at once, one read and one write of the tensor (float32, C order, mode 8 innermost).
//
// A cluster of 16 blocks takes a tile: one coset in each of modes 0..7 and all 8 indices of mode 8
// (two cosets: rows of 32 bytes, whole sectors whatever V is), 4^8 * 8 entries = 2 MB. Block
// r = 4 t0 + t1 holds the tile's entries whose local indices in modes 0 and 1 are (t0, t1): 128 KB,
// loaded by cp.async. Each block mixes modes 2..8 in its own shared memory (modes two at a time in
// registers), then, after a cluster barrier, each thread reads one entry position from all 16
// blocks (distributed shared memory), mixes modes 0 and 1 (a 16-entry fiber) and stores the 16
// results to global memory. The layout pads each 128-entry group (modes 6, 7, 8) by 8 entries so
// that the fibers' reads hit 32 banks.
//
// Checks: entries of the result against a host evaluation of the same sum (every mode's 4 x 4
// block, 4^9 terms an entry) for several V; time against cudaMemcpy of the same bytes.
//   build: bash scripts/build-cluster-probe.sh   run: build/bench/cluster_apply_probe [REPEATS]
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

namespace {

constexpr int order = 9, size = 8;
constexpr long long entries = 134217728;  // 8^9
constexpr int cluster_blocks = 16;
constexpr int tiles = 256;                  // 2 cosets in each of modes 0..7
// A block's entries: 4^6 (modes 2..7) x 8 (mode 8), in 256 groups of 128 (modes 6, 7, 8) padded by 8.
constexpr int group_pad = 136;
constexpr int padded = 256 * group_pad;     // a block's shared entries
__host__ __device__ constexpr long long stride(int mode) { return mode == order - 1 ? 1 : stride(mode + 1) * size; }

struct Subspace {
  int v[4];        // V sorted
  int leader[2];   // the two cosets' smallest elements
};

// Shared index of a block's entry from its local digits (t2..t7 in 0..3) and mode 8's index i8.
__host__ __device__ constexpr int shared_index(int group, int t6, int t7, int i8) {
  return group * group_pad + t6 * 32 + t7 * 8 + i8;
}

// new[j] = sum_i Q(i, j) old[i] along two modes of a 4 x 4 fiber held in registers (a along the
// first index, b along the second).
__device__ __forceinline__ void mix_fiber(float (&x)[4][4], const float* qa, const float* qb) {
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    float y[4];
#pragma unroll
    for (int o = 0; o < 4; ++o) y[o] = qa[o] * x[0][j] + qa[4 + o] * x[1][j] + qa[8 + o] * x[2][j] + qa[12 + o] * x[3][j];
#pragma unroll
    for (int o = 0; o < 4; ++o) x[o][j] = y[o];
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float y[4];
#pragma unroll
    for (int o = 0; o < 4; ++o) y[o] = qb[o] * x[i][0] + qb[4 + o] * x[i][1] + qb[8 + o] * x[i][2] + qb[12 + o] * x[i][3];
#pragma unroll
    for (int o = 0; o < 4; ++o) x[i][o] = y[o];
  }
}

// Modes 0 and 1 of one position across the cluster: the 16 entries at shared index `at` of blocks
// 4 t0 + t1, mixed, then stored at global `g` + the two modes' offsets.
template <class Cluster>
__device__ __forceinline__ void mix_across_cluster(Cluster& cluster, float* c, int at, const float* qa, const float* qb,
                                                   float* data, const long long (&offset0)[4],
                                                   const long long (&offset1)[4], long long g) {
  float x[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) x[i][j] = *cluster.map_shared_rank(c + at, i * 4 + j);
  mix_fiber(x, qa, qb);
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) data[offset0[i] + offset1[j] + g] = x[i][j];
}

// Modes (first, first + 1) of every fiber of a block's portion, in place: `items` fibers, the
// item's base index from `base_of`, the two modes' strides in shared memory.
// A block's 16 entries in registers (loaded once: the mixing's operands then come from registers,
// not from a shared-memory load each).
__device__ __forceinline__ void block_in_registers(float (&r)[16], const float* q) {
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const float4 v = reinterpret_cast<const float4*>(q)[k];
    r[4 * k] = v.x, r[4 * k + 1] = v.y, r[4 * k + 2] = v.z, r[4 * k + 3] = v.w;
  }
}

template <int Threads, int Items = 2048, bool BlocksInRegisters = false, typename Base>
__device__ __forceinline__ void mix_local_pair(float* c, const float* q_a, const float* q_b, int sa, int sb, Base base_of) {
  float ra[16], rb[16];
  if constexpr (BlocksInRegisters) block_in_registers(ra, q_a), block_in_registers(rb, q_b);
  const float* qa = BlocksInRegisters ? ra : q_a;
  const float* qb = BlocksInRegisters ? rb : q_b;
#pragma unroll 1
  for (int u = threadIdx.x; u < Items; u += Threads) {
    const int base = base_of(u);
    float x[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) x[i][j] = c[base + i * sa + j * sb];
    mix_fiber(x, qa, qb);
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) c[base + i * sa + j * sb] = x[i][j];
  }
}

// Phases (for the time's breakdown; only `whole` computes the pass): the load and a store of the
// block's own portion; the load, the local modes and the own store; the load and the cluster's modes
// 0 and 1 with their store; the whole pass.
enum Phases { load_store, local_modes, cluster_modes, whole };

template <int Threads, Phases Run = whole>
__global__ void __launch_bounds__(Threads, 1) subspace_apply_cluster(float* data, const float* __restrict__ q, Subspace s) {
  extern __shared__ float4 shared_raw[];
  float* c = reinterpret_cast<float*>(shared_raw);
  __shared__ float qs[order * 2 * 16];
  __shared__ long long offset[8][4];
  __shared__ int position8[8];
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank());
  const int tile = blockIdx.x / cluster_blocks;
  const int tid = threadIdx.x;
  for (int k = tid; k < order * 2 * 16; k += Threads) qs[k] = q[k];
  if (tid < 32) {
    const int n = tid / 4, t = tid % 4;
    const int a = s.leader[(tile >> (7 - n)) & 1];
    offset[n][t] = static_cast<long long>(a ^ s.v[t]) * stride(n);
  }
  if (tid < 8) position8[tid] = s.leader[tid / 4] ^ s.v[tid % 4];
  __syncthreads();
  const int t0 = rank >> 2, t1 = rank & 3;
  const long long base = offset[0][t0] + offset[1][t1];
#pragma unroll 4
  for (int w = tid; w < 8192; w += Threads) {
    const int row = w >> 1, half = w & 1;
    const long long g = base + offset[2][(row >> 10) & 3] + offset[3][(row >> 8) & 3] + offset[4][(row >> 6) & 3] +
                        offset[5][(row >> 4) & 3] + offset[6][(row >> 2) & 3] + offset[7][row & 3] + half * 4;
    const int at = shared_index(row >> 4, (row >> 2) & 3, row & 3, half * 4);
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(c + at));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(data + g));
  }
  asm volatile("cp.async.commit_group;\ncp.async.wait_all;\n" ::);
  __syncthreads();

  auto q_of = [&](int mode) { return qs + (mode * 2 + ((tile >> (7 - mode)) & 1)) * 16; };
  if constexpr (Run == local_modes || Run == whole) {
  // Modes 2, 3: the items are (t4, t5, t6, t7, i8).
  mix_local_pair<Threads>(c, q_of(2), q_of(3), 64 * group_pad, 16 * group_pad,
                          [](int u) { return (u >> 7) * group_pad + (u & 127); });
  __syncthreads();
  // Modes 4, 5: the items are (t2, t3, t6, t7, i8).
  mix_local_pair<Threads>(c, q_of(4), q_of(5), 4 * group_pad, group_pad,
                          [](int u) { return (u >> 7) * 16 * group_pad + (u & 127); });
  __syncthreads();
  // Modes 6, 7: the items are (t2, t3, t4, t5, i8).
  mix_local_pair<Threads>(c, q_of(6), q_of(7), 32, 8, [](int u) { return (u >> 3) * group_pad + (u & 7); });
  __syncthreads();
  // Mode 8: each row's two cosets.
#pragma unroll 1
  for (int u = tid; u < 8192; u += Threads) {
    const int row = u >> 1, coset = u & 1;
    float* r = c + (row >> 4) * group_pad + (row & 15) * 8;
    const float* q8 = qs + (8 * 2 + coset) * 16;
    float x[4], y[4];
#pragma unroll
    for (int t = 0; t < 4; ++t) x[t] = r[position8[coset * 4 + t]];
#pragma unroll
    for (int o = 0; o < 4; ++o) y[o] = q8[o] * x[0] + q8[4 + o] * x[1] + q8[8 + o] * x[2] + q8[12 + o] * x[3];
#pragma unroll
    for (int t = 0; t < 4; ++t) r[position8[coset * 4 + t]] = y[t];
  }
  }
  if constexpr (Run == load_store || Run == local_modes) {
    __syncthreads();
    for (int w = tid; w < 8192; w += Threads) {
      const int row = w >> 1, half = w & 1;
      const long long g = base + offset[2][(row >> 10) & 3] + offset[3][(row >> 8) & 3] + offset[4][(row >> 6) & 3] +
                          offset[5][(row >> 4) & 3] + offset[6][(row >> 2) & 3] + offset[7][row & 3] + half * 4;
      *reinterpret_cast<float4*>(data + g) = *reinterpret_cast<const float4*>(c + shared_index(row >> 4, (row >> 2) & 3, row & 3, half * 4));
    }
    return;
  }
  cluster.sync();
  // Modes 0, 1 across the cluster: position p of every block is one 16-entry fiber.
  const float* qa = q_of(0);
  const float* qb = q_of(1);
#pragma unroll 1
  for (int k = tid; k < 2048; k += Threads) {
    const int logical = ((k >> 5) * 16 + rank) * 32 + (k & 31);
    const int row = logical >> 3, i8 = logical & 7;
    const long long g = offset[2][(row >> 10) & 3] + offset[3][(row >> 8) & 3] + offset[4][(row >> 6) & 3] +
                        offset[5][(row >> 4) & 3] + offset[6][(row >> 2) & 3] + offset[7][row & 3] + i8;
    mix_across_cluster(cluster, c, (row >> 4) * group_pad + (row & 15) * 8 + i8, qa, qb, data, offset[0], offset[1], g);
  }
  cluster.sync();  // no block leaves while another reads its shared memory
}


// The second arrangement: a cluster takes one cell (a coset in every mode, mode 8's included), 4^9
// entries = 1 MB, so a block holds 64 KB and three blocks share a multiprocessor (a cluster's
// loads beside another's mixing). Mode 8's coset is two 8-byte runs of a row (V holds 0, 1).
// Block layout: 256 groups (t2..t5) of 64 entries (t6, t7, t8) padded to 68.
constexpr int cell_pad = 68;
constexpr int cell_tiles = 512;
constexpr int cell_shared_bytes = 256 * cell_pad * static_cast<int>(sizeof(float));

// One cell's pass by the calling cluster (the block's shared `qs` holds the blocks already).
template <int Threads, bool BlocksInRegisters, Phases Run>
__device__ __forceinline__ void cell_pass(float* data, const float* qs, const Subspace& s, int tile, float* c,
                                          long long (&offset)[order][4]) {
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank());
  const int tid = threadIdx.x;
  if (tid < 36) {
    const int n = tid / 4, t = tid % 4;
    const int a = s.leader[(tile >> (8 - n)) & 1];
    offset[n][t] = static_cast<long long>(a ^ s.v[t]) * stride(n);
  }
  __syncthreads();
  const long long base = offset[0][rank >> 2] + offset[1][rank & 3];
  auto row_offset = [&](int row) {
    return offset[2][(row >> 10) & 3] + offset[3][(row >> 8) & 3] + offset[4][(row >> 6) & 3] +
           offset[5][(row >> 4) & 3] + offset[6][(row >> 2) & 3] + offset[7][row & 3];
  };
#pragma unroll 4
  for (int w = tid; w < 8192; w += Threads) {
    const int row = w >> 1, pair = w & 1;
    const long long g = base + row_offset(row) + offset[8][2 * pair];
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(c + (row >> 4) * cell_pad + (row & 15) * 4 + 2 * pair));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(to), "l"(data + g));
  }
  asm volatile("cp.async.commit_group;\ncp.async.wait_all;\n" ::);
  __syncthreads();
  if constexpr (Run == load_store) {
    for (int w = tid; w < 8192; w += Threads) {
      const int row = w >> 1, pair = w & 1;
      *reinterpret_cast<float2*>(data + base + row_offset(row) + offset[8][2 * pair]) =
          *reinterpret_cast<const float2*>(c + (row >> 4) * cell_pad + (row & 15) * 4 + 2 * pair);
    }
    return;
  }
  auto q_of = [&](int mode) { return qs + (mode * 2 + ((tile >> (8 - mode)) & 1)) * 16; };
  mix_local_pair<Threads, 1024, BlocksInRegisters>(c, q_of(2), q_of(3), 64 * cell_pad, 16 * cell_pad,
                                [](int u) { return (u >> 6) * cell_pad + (u & 63); });
  __syncthreads();
  mix_local_pair<Threads, 1024, BlocksInRegisters>(c, q_of(4), q_of(5), 4 * cell_pad, cell_pad,
                                [](int u) { return (u >> 6) * 16 * cell_pad + (u & 63); });
  __syncthreads();
  mix_local_pair<Threads, 1024, BlocksInRegisters>(c, q_of(6), q_of(7), 16, 4, [](int u) { return (u >> 2) * cell_pad + (u & 3); });
  __syncthreads();
  float r8[16];
  if constexpr (BlocksInRegisters) block_in_registers(r8, q_of(8));
  const float* q8 = BlocksInRegisters ? r8 : q_of(8);
#pragma unroll 1
  for (int row = tid; row < 4096; row += Threads) {
    float4* r = reinterpret_cast<float4*>(c + (row >> 4) * cell_pad + (row & 15) * 4);
    const float4 x = *r;
    float4 y;
    y.x = q8[0] * x.x + q8[4] * x.y + q8[8] * x.z + q8[12] * x.w;
    y.y = q8[1] * x.x + q8[5] * x.y + q8[9] * x.z + q8[13] * x.w;
    y.z = q8[2] * x.x + q8[6] * x.y + q8[10] * x.z + q8[14] * x.w;
    y.w = q8[3] * x.x + q8[7] * x.y + q8[11] * x.z + q8[15] * x.w;
    *r = y;
  }
  cluster.sync();
  float r0[16], r1[16];
  if constexpr (BlocksInRegisters) block_in_registers(r0, q_of(0)), block_in_registers(r1, q_of(1));
  const float* qa = BlocksInRegisters ? r0 : q_of(0);
  const float* qb = BlocksInRegisters ? r1 : q_of(1);
#pragma unroll 1
  for (int k = tid; k < 1024; k += Threads) {
    const int logical = ((k >> 5) * 16 + rank) * 32 + (k & 31);
    const int row = logical >> 2, t8 = logical & 3;
    mix_across_cluster(cluster, c, (row >> 4) * cell_pad + (row & 15) * 4 + t8, qa, qb, data, offset[0], offset[1],
                       row_offset(row) + offset[8][t8]);
  }
  cluster.sync();
}

// Siblings: a cluster takes the two cells that share mode 8's rows (tiles 2x, 2x + 1) one after the
// other, so that the second reads the rows' other halves from L2.
template <int Threads, bool BlocksInRegisters = false, Phases Run = whole, bool Siblings = false>
__global__ void __launch_bounds__(Threads, Threads == 256 ? 3 : 2) subspace_apply_cell(float* data, const float* __restrict__ q, Subspace s) {
  extern __shared__ float4 shared_raw[];
  __shared__ float qs[order * 2 * 16];
  __shared__ long long offset[order][4];
  for (int k = threadIdx.x; k < order * 2 * 16; k += Threads) qs[k] = q[k];
  const int cluster_index = blockIdx.x / cluster_blocks;
  for (int half = 0; half < (Siblings ? 2 : 1); ++half) {
    __syncthreads();
    cell_pass<Threads, BlocksInRegisters, Run>(data, qs, s, Siblings ? 2 * cluster_index + half : cluster_index,
                                               reinterpret_cast<float*>(shared_raw), offset);
  }
}

__global__ void fill(float* data, unsigned seed) {
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < entries; i += 256LL * gridDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
    data[i] = static_cast<float>(h) * (2.0f / 4294967296.0f) - 1.0f;
  }
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "cluster_apply_probe: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// A random orthogonal 4 x 4 block (Gram-Schmidt of a Gaussian matrix), row-major.
void orthogonal_block(std::mt19937& random, float* q) {
  std::normal_distribution<double> normal;
  double m[4][4];
  for (auto& row : m)
    for (double& x : row) x = normal(random);
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < i; ++k) {
      double dot = 0;
      for (int j = 0; j < 4; ++j) dot += m[i][j] * m[k][j];
      for (int j = 0; j < 4; ++j) m[i][j] -= dot * m[k][j];
    }
    double norm = 0;
    for (int j = 0; j < 4; ++j) norm += m[i][j] * m[i][j];
    for (int j = 0; j < 4; ++j) m[i][j] /= std::sqrt(norm);
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) q[i * 4 + j] = static_cast<float>(m[i][j]);
}

// The host's value of the pass at one entry: the sum over its cell of every mode's block entry.
void host_entry(const std::vector<float>& in, const std::vector<float>& q, const Subspace& s, const int (&index)[order],
                double& value, double& magnitude) {
  int coset[order], out_local[order];
  for (int n = 0; n < order; ++n)
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < 4; ++t)
        if ((s.leader[c] ^ s.v[t]) == index[n]) coset[n] = c, out_local[n] = t;
  value = magnitude = 0;
  for (int code = 0; code < (1 << (2 * order)); ++code) {
    long long at = 0;
    double weight = 1;
    for (int n = 0; n < order; ++n) {
      const int t = (code >> (2 * n)) & 3;
      at += static_cast<long long>(s.leader[coset[n]] ^ s.v[t]) * stride(n);
      weight *= q[(n * 2 + coset[n]) * 16 + t * 4 + out_local[n]];
    }
    value += weight * in[static_cast<std::size_t>(at)];
    magnitude += std::fabs(weight * in[static_cast<std::size_t>(at)]);
  }
}

constexpr int shared_bytes = padded * static_cast<int>(sizeof(float));

// The kernel's opt-ins: shared memory past 48 KB, clusters past the portable 8 blocks.
template <int Threads, Phases Run = whole>
auto prepared() {
  auto kernel = subspace_apply_cluster<Threads, Run>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes), "max shared");
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), "cluster 16");
  return kernel;
}

// One launch of `kernel` in clusters of 16, timed by events.
float launch(void (*kernel)(float*, const float*, Subspace), int blocks, int threads, int shared, float* data,
             const float* q, const Subspace& s) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shared;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = cluster_blocks;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  check(cudaLaunchKernelEx(&config, kernel, data, q, s), "launch");
  cudaEventRecord(stop);
  check(cudaEventSynchronize(stop), "pass");
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

template <int Threads, Phases Run = whole>
float run(float* data, const float* q, const Subspace& s) {
  return launch(prepared<Threads, Run>(), tiles * cluster_blocks, Threads, shared_bytes, data, q, s);
}

template <int Threads, bool BlocksInRegisters = false, Phases Run = whole, bool Siblings = false>
float run_cell(float* data, const float* q, const Subspace& s) {
  auto kernel = subspace_apply_cell<Threads, BlocksInRegisters, Run, Siblings>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, cell_shared_bytes), "max shared");
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), "cluster 16");
  return launch(kernel, (Siblings ? cell_tiles / 2 : cell_tiles) * cluster_blocks, Threads, cell_shared_bytes, data, q, s);
}

template <int Threads>
int max_clusters() {
  auto kernel = prepared<Threads>();
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(tiles * cluster_blocks);
  config.blockDim = dim3(Threads);
  config.dynamicSmemBytes = shared_bytes;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim = {cluster_blocks, 1, 1};
  config.attrs = attribute;
  config.numAttrs = 1;
  int count = 0;
  check(cudaOccupancyMaxActiveClusters(&count, kernel, &config), "max active clusters");
  return count;
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 9;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("cluster_apply_probe: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "properties");
  const double bytes = 2.0 * entries * sizeof(float);
  float *data = nullptr, *copy = nullptr, *q = nullptr;
  check(cudaMalloc(&data, entries * sizeof(float)), "malloc");
  check(cudaMalloc(&copy, entries * sizeof(float)), "malloc");
  check(cudaMalloc(&q, order * 2 * 16 * sizeof(float)), "malloc");
  fill<<<1024, 256>>>(data, 12345u);
  check(cudaDeviceSynchronize(), "fill");
  std::vector<float> input(entries);
  check(cudaMemcpy(input.data(), data, entries * sizeof(float), cudaMemcpyDeviceToHost), "download");

  std::vector<float> copies;
  for (int r = 0; r < repeats; ++r) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    cudaMemcpy(copy, data, entries * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    copies.push_back(ms);
  }
  const float copy_ms = median(copies);
  std::printf("device: %s (%d SMs); D = 9, N = 8 float32 (%.1f MB); copy %.3f ms = %.0f GB/s (read + write)\n",
              prop.name, prop.multiProcessorCount, entries * 4 / 1e6, copy_ms, bytes / copy_ms / 1e6);
  std::printf("clusters of 16 blocks resident at once: %d (512 threads), %d (1024 threads); %d KB shared a block\n",
              max_clusters<512>(), max_clusters<1024>(), static_cast<int>(padded * sizeof(float) / 1024));

  const Subspace subspaces[3] = {{{0, 1, 2, 3}, {0, 4}}, {{0, 1, 4, 5}, {0, 2}}, {{0, 1, 6, 7}, {0, 2}}};
  std::mt19937 random(2026);
  std::vector<float> blocks(order * 2 * 16);
  for (int b = 0; b < order * 2; ++b) orthogonal_block(random, blocks.data() + b * 16);
  check(cudaMemcpy(q, blocks.data(), blocks.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");

  int failures = 0;
  std::printf("%-14s %-8s %-10s %-10s %-10s %-12s\n", "V", "tile/thr", "pass_ms", "GB/s", "of_copy", "max_rel_err");
  for (const Subspace& s : subspaces) {
    for (int variant : {512, 1024, -256, -512, -2560, -2561}) {
      // > 0: tiles of 2 MB a cluster with that many threads a block; < 0: cells of 1 MB (-2560:
      // 256 threads with the 4 x 4 blocks in registers; -2561: and sibling cells one after the other).
      auto pass = [&] {
        switch (variant) {
          case 512: return run<512>(data, q, s);
          case 1024: return run<1024>(data, q, s);
          case -256: return run_cell<256>(data, q, s);
          case -2560: return run_cell<256, true>(data, q, s);
          case -2561: return run_cell<256, true, whole, true>(data, q, s);
          default: return run_cell<512>(data, q, s);
        }
      };
      check(cudaMemcpy(data, input.data(), entries * sizeof(float), cudaMemcpyHostToDevice), "upload");
      pass();
      std::vector<float> out(entries);
      check(cudaMemcpy(out.data(), data, entries * sizeof(float), cudaMemcpyDeviceToHost), "download");
      double worst = 0;
      std::uniform_int_distribution<int> digit(0, size - 1);
      for (int k = 0; k < 12; ++k) {
        int index[order];
        long long at = 0;
        for (int n = 0; n < order; ++n) index[n] = digit(random), at += index[n] * stride(n);
        double value, magnitude;
        host_entry(input, blocks, s, index, value, magnitude);
        const double error = std::fabs(out[static_cast<std::size_t>(at)] - value) / magnitude;
        worst = std::max(worst, error);
      }
      if (!(worst < 1e-5)) ++failures;
      std::vector<float> times;
      for (int r = 0; r < repeats; ++r) times.push_back(pass());
      const float ms = median(times);
      std::printf("{%d,%d,%d,%d}      %-8s %-10.3f %-10.0f %-10.2f %-12.2e\n", s.v[0], s.v[1], s.v[2], s.v[3],
                  (variant > 0 ? "2MB/" + std::to_string(variant) : variant == -2560 ? std::string("1MB/256r") : variant == -2561 ? std::string("1MB/256rs") : "1MB/" + std::to_string(-variant)).c_str(), ms,
                  bytes / ms / 1e6, copy_ms / ms, worst);
    }
  }
  // Where the time goes (2 MB tiles: V = {0, 1, 2, 3}, 512 threads; 1 MB cells: V = {0, 1, 4, 5}):
  // each phase alone, timed the same way.
  const char* names[] = {"load + own store", "load + local modes 2..8 + own store", "load + cluster modes 0, 1 + store",
                         "1 MB cells, 256 threads: load + own store"};
  for (int phase = 0; phase < 4; ++phase) {
    std::vector<float> times;
    for (int r = 0; r < repeats; ++r)
      times.push_back(phase == 0   ? run<512, load_store>(data, q, subspaces[0])
                      : phase == 1 ? run<512, local_modes>(data, q, subspaces[0])
                      : phase == 2 ? run<512, cluster_modes>(data, q, subspaces[0])
                                   : run_cell<256, false, load_store>(data, q, subspaces[1]));
    const float ms = median(times);
    std::printf("phases: %-40s %.3f ms (%.2f of copy)\n", names[phase], ms, copy_ms / ms);
  }
  std::printf("%s\n", failures ? "CHECK FAILED" : "all checked entries within 1e-5 of the host's sum (relative to sum |terms|)");
  return failures ? 1 : 0;
}
