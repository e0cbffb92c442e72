// C = A x B for row-major f32 matrices: A is m x k, B is k x n, C is m x n.
//
// matmul_naive: one invocation per element of C, every operand from global memory.
// matmul_tiled: a TILE x TILE work group computes a (TILE x BLOCK)^2 block of C, each invocation a
// BLOCK x BLOCK sub-block; the A and B panels it needs go through shared memory TILE columns at a
// time, so each element loaded is used TILE x BLOCK times. Edges are padded with zeros in shared
// memory, so shapes need not be multiples of the tile.

override TILE: u32 = 16u;
const BLOCK: u32 = 4u;

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

@compute @workgroup_size(TILE, TILE)
fn matmul_naive(@builtin(global_invocation_id) gid: vec3<u32>) {
    let row = gid.y;
    let col = gid.x;
    if row >= dims.m || col >= dims.n {
        return;
    }
    var sum = 0.0;
    for (var i = 0u; i < dims.k; i++) {
        sum += a[row * dims.k + i] * b[i * dims.n + col];
    }
    c[row * dims.n + col] = sum;
}

// A panel: (TILE x BLOCK) rows x TILE columns; B panel: TILE rows x (TILE x BLOCK) columns.
var<workgroup> sh_a: array<f32, TILE * TILE * BLOCK>;
var<workgroup> sh_b: array<f32, TILE * TILE * BLOCK>;

@compute @workgroup_size(TILE, TILE)
fn matmul_tiled(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let span = TILE * BLOCK;
    let row0 = wid.y * span;
    let col0 = wid.x * span;
    let flat = lid.y * TILE + lid.x;
    var acc: array<f32, 16>;
    for (var k0 = 0u; k0 < dims.k; k0 += TILE) {
        // Each invocation loads BLOCK elements of each panel.
        for (var r = 0u; r < BLOCK; r++) {
            let e = r * TILE * TILE + flat;
            // A panel element e: row e / TILE, column e % TILE.
            let ar = row0 + e / TILE;
            let ac = k0 + e % TILE;
            sh_a[e] = select(0.0, a[ar * dims.k + ac], ar < dims.m && ac < dims.k);
            // B panel element e: row e / span, column e % span.
            let br = k0 + e / span;
            let bc = col0 + e % span;
            sh_b[e] = select(0.0, b[br * dims.n + bc], br < dims.k && bc < dims.n);
        }
        workgroupBarrier();
        for (var kk = 0u; kk < TILE; kk++) {
            var av: array<f32, BLOCK>;
            for (var i = 0u; i < BLOCK; i++) {
                av[i] = sh_a[(lid.y * BLOCK + i) * TILE + kk];
            }
            for (var j = 0u; j < BLOCK; j++) {
                let bv = sh_b[kk * span + lid.x * BLOCK + j];
                for (var i = 0u; i < BLOCK; i++) {
                    acc[i * BLOCK + j] += av[i] * bv;
                }
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < BLOCK; i++) {
        let row = row0 + lid.y * BLOCK + i;
        for (var j = 0u; j < BLOCK; j++) {
            let col = col0 + lid.x * BLOCK + j;
            if row < dims.m && col < dims.n {
                c[row * dims.n + col] = acc[i * BLOCK + j];
            }
        }
    }
}
