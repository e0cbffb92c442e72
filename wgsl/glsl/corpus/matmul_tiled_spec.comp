#version 450
// API-sample style: a tiled matrix product, the tile edge a specialization constant that sizes
// the shared tiles (fixed at translation) and the work group.
layout(local_size_x_id = 0, local_size_y_id = 0) in;
layout(constant_id = 0) const uint TILE = 8;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
layout(std140, binding = 3) uniform Dims { uint n; } dims;
shared float tile_a[TILE * TILE];
shared float tile_b[TILE * TILE];
void main() {
    uint n = dims.n;
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    uint ly = gl_LocalInvocationID.y, lx = gl_LocalInvocationID.x;
    float sum = 0.0;
    for (uint t = 0u; t < (n + TILE - 1u) / TILE; t++) {
        uint ac = t * TILE + lx, br = t * TILE + ly;
        tile_a[ly * TILE + lx] = (row < n && ac < n) ? a[row * n + ac] : 0.0;
        tile_b[ly * TILE + lx] = (br < n && col < n) ? b[br * n + col] : 0.0;
        barrier();
        for (uint k = 0u; k < TILE; k++) {
            sum += tile_a[ly * TILE + k] * tile_b[k * TILE + lx];
        }
        barrier();
    }
    if (row < n && col < n) c[row * n + col] = sum;
}
