// C = A x B for row-major f32 matrices: A is m x k, B is k x n, C is m x n.
//
// matmul_naive: one invocation per element of C, every operand from global memory.
// matmul_tiled: a TILE x TILE work group computes a (TILE x BR) x (TILE x BC) block of C, each
// invocation BR x BC outputs in registers. The A and B panels it needs go through shared memory
// KSTEP columns (rows) at a time, as vec4s: the A panel transposed, so that at one k an
// invocation reads its BR rows as BR / 4 vec4s and its BC columns as BC / 4, and updates BR x BC
// sums. Edges are padded with zeros in shared memory, so shapes need not be multiples of the
// block. The Rust side (matmul.rs) writes the `shape` block per adapter and the `step` block,
// unrolled, from it; as written the file is the 4 x 4 shape of a GPU.
//
// Both kernels sum only columns `k_range.begin .. k_range.end` of A (rows of B): the Rust side
// splits a long inner dimension into chunks, one dispatch each, so that no invocation runs more
// loop iterations than llvmpipe allows (it ends every loop of an invocation silently after 65,535
// in total). A chunk after the first starts from the sums in C, so each element of C is the same
// f32 sum, in the same order, as one dispatch would give.

// #block shape
// Work groups of TILE x TILE invocations.
const TILE: u32 = 16u;
// Rows and columns of C per invocation (multiples of 4).
const BR: u32 = 4u;
const BC: u32 = 4u;
// Columns of A (rows of B) per panel.
const KSTEP: u32 = 16u;
// #end shape

struct Dims {
    m: u32,
    k: u32,
    n: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

// The columns of A (rows of B) this dispatch adds: from `begin` (0: C = A x B; more: C += the
// rest) to `end` (at most dims.k; the tiled kernel's chunks start at multiples of KSTEP); and the
// work groups before this dispatch's first, across and down (a C wider or taller than one
// dispatch's grid allows takes several).
struct KRange {
    begin: u32,
    end: u32,
    group_x: u32,
    group_y: u32,
}
@group(0) @binding(4) var<uniform> k_range: KRange;

@compute @workgroup_size(TILE, TILE)
fn matmul_naive(@builtin(global_invocation_id) gid: vec3<u32>) {
    let row = gid.y + k_range.group_y * TILE;
    let col = gid.x + k_range.group_x * TILE;
    if row >= dims.m || col >= dims.n {
        return;
    }
    var sum = 0.0;
    if k_range.begin > 0u {
        sum = c[row * dims.n + col];
    }
    for (var i = k_range.begin; i < k_range.end; i++) {
        sum += a[row * dims.k + i] * b[i * dims.n + col];
    }
    c[row * dims.n + col] = sum;
}

// vec4s per column of the A panel (TILE x BR rows) and per row of the B panel (TILE x BC columns).
const AQ: u32 = TILE * BR / 4u;
const BQ: u32 = TILE * BC / 4u;
var<workgroup> sh_a: array<vec4<f32>, KSTEP * AQ>;
var<workgroup> sh_b: array<vec4<f32>, KSTEP * BQ>;
// This invocation's BR x BC sums, row by row, BC / 4 vec4s a row.
var<private> acc: array<vec4<f32>, BR * BC / 4u>;

// A and B at (row, column), 0 outside the matrix (the index is clamped so the load stays in bounds).
fn a_at(row: u32, col: u32) -> f32 {
    let inside = row < dims.m && col < dims.k;
    return select(0.0, a[min(row, dims.m - 1u) * dims.k + min(col, dims.k - 1u)], inside);
}
fn b_at(row: u32, col: u32) -> f32 {
    let inside = row < dims.k && col < dims.n;
    return select(0.0, b[min(row, dims.k - 1u) * dims.n + min(col, dims.n - 1u)], inside);
}

// #block step
// One k of the panels: this invocation's rows (ty) times its columns (tx) added to `acc`.
fn step(kk: u32, ty: u32, tx: u32) {
    let a0 = sh_a[kk * AQ + ty];
    let b0 = sh_b[kk * BQ + tx];
    acc[0] += a0.x * b0;
    acc[1] += a0.y * b0;
    acc[2] += a0.z * b0;
    acc[3] += a0.w * b0;
}

// Stores the sums: C's rows from `row`, columns from `col`.
fn store(row: u32, col: u32) {
    for (var i = 0u; i < BR; i++) {
        for (var j = 0u; j < BC; j++) {
            store_one(row + i, col + j, acc[i * (BC / 4u) + j / 4u][j % 4u]);
        }
    }
}

// Loads the sums of the chunks before this one from C (the same elements `store` writes).
fn load(row: u32, col: u32) {
    for (var i = 0u; i < BR; i++) {
        for (var q = 0u; q < BC / 4u; q++) {
            let j = col + 4u * q;
            acc[i * (BC / 4u) + q] = vec4<f32>(load_one(row + i, j), load_one(row + i, j + 1u), load_one(row + i, j + 2u), load_one(row + i, j + 3u));
        }
    }
}
// #end step

fn store_one(row: u32, col: u32, v: f32) {
    if row < dims.m && col < dims.n {
        c[row * dims.n + col] = v;
    }
}

// C at (row, column), 0 outside the matrix (the index is clamped so the load stays in bounds).
fn load_one(row: u32, col: u32) -> f32 {
    let inside = row < dims.m && col < dims.n;
    return select(0.0, c[min(row, dims.m - 1u) * dims.n + min(col, dims.n - 1u)], inside);
}

@compute @workgroup_size(TILE, TILE)
fn matmul_tiled(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let row0 = (wid.y + k_range.group_y) * TILE * BR;
    let col0 = (wid.x + k_range.group_x) * TILE * BC;
    let flat = lid.y * TILE + lid.x;
    if k_range.begin > 0u {
        load(row0 + lid.y * BR, col0 + lid.x * BC);
    }
    for (var k0 = k_range.begin; k0 < k_range.end; k0 += KSTEP) {
        // A panel: vec4 q of column kk holds rows 4q .. 4q + 3 (neighbouring invocations read
        // neighbouring columns of a row of A).
        for (var e = flat; e < KSTEP * AQ; e += TILE * TILE) {
            let kk = e % KSTEP;
            let q = e / KSTEP;
            let row = row0 + q * 4u;
            let col = k0 + kk;
            sh_a[kk * AQ + q] = vec4<f32>(a_at(row, col), a_at(row + 1u, col), a_at(row + 2u, col), a_at(row + 3u, col));
        }
        // B panel: vec4 q of row kk holds columns 4q .. 4q + 3.
        for (var e = flat; e < KSTEP * BQ; e += TILE * TILE) {
            let row = k0 + e / BQ;
            let col = col0 + (e % BQ) * 4u;
            sh_b[e] = vec4<f32>(b_at(row, col), b_at(row, col + 1u), b_at(row, col + 2u), b_at(row, col + 3u));
        }
        workgroupBarrier();
        for (var kk = 0u; kk < KSTEP; kk++) {
            step(kk, lid.y * (BR / 4u), lid.x * (BC / 4u));
        }
        workgroupBarrier();
    }
    store(row0 + lid.y * BR, col0 + lid.x * BC);
}
