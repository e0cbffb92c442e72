// Rendering single-pixel particles with compute shaders and atomics (the particle-rendering article): the per-frame
// clear, the single-dispatch coarse depth level, the 2 x u32 splat exactly as the document's
// shader, and a projection pass that writes each particle's fragment for the CPU twin.
//
// Per pixel, two words [lo, hi] = [Gl11B21, R21Gh11]: the same 8 bytes the 64-bit path
// (splat_int64.wgsl) adds R21G22B21 to in one atomic, little-endian, so one unpacking serves both.

#import splat::common
#import shoal::fold

@group(0) @binding(4) var<storage, read_write> accum: array<array<atomic<u32>, 2>>;
@group(0) @binding(5) var<storage, read_write> hiz_out: array<f32>;
@group(0) @binding(6) var<storage, read_write> projected: array<vec4<u32>>;
@group(0) @binding(7) var<storage, read_write> accum_words: array<vec2<u32>>;

override WG: u32 = 256;

@compute @workgroup_size(WG)
fn clear_accum(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lidx: u32,
) {
    let i = shoal_linear_index(wid, nwg, lidx, WG);
    if i < arrayLength(&accum_words) {
        accum_words[i] = vec2<u32>(0u);
    }
}

var<workgroup> sh_min: array<f32, 16>;

// One work group per 16 x 16 tile: the minimum depth it covers, in one dispatch (no mip chain).
// Each of the 16 invocations takes one column of the tile in registers, then four shared-memory
// steps reduce the columns: on software adapters the cost is invocations and barriers, and a
// 256-invocation tree (eight barriers) ran this kernel about as slowly as the splat itself.
@compute @workgroup_size(16)
fn build_hiz(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(local_invocation_index) lidx: u32,
) {
    let x = wid.x * SPLAT_TILE + lidx;
    // Texels past the image's edge take the far plane, which never lowers a minimum.
    var d = 1.0;
    if x < params.size.x {
        let y0 = wid.y * SPLAT_TILE;
        for (var y = y0; y < min(y0 + SPLAT_TILE, params.size.y); y++) {
            d = min(d, textureLoad(scene_depth, vec2<u32>(x, y), 0).r);
        }
    }
    sh_min[lidx] = d;
    for (var stride = 8u; stride > 0u; stride = stride >> 1u) {
        workgroupBarrier();
        if lidx < stride {
            sh_min[lidx] = min(sh_min[lidx], sh_min[lidx + stride]);
        }
    }
    if lidx == 0u && wid.x < params.size.z && wid.y < params.size.w {
        hiz_out[wid.y * params.size.z + wid.x] = sh_min[0];
    }
}

// What the splat kernels compute before they add, for the CPU twin: (status, r, g, b).
@compute @workgroup_size(WG)
fn project_particles(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lidx: u32,
) {
    let i = shoal_linear_index(wid, nwg, lidx, WG);
    if i >= arrayLength(&particles) || i >= arrayLength(&projected) {
        return;
    }
    let f = splat_fragment(i);
    projected[i] = vec4<u32>(f.status, f.color);
}

// The 2 x u32 splat: the entry point of splat_entry.wgsl, adding with `splat_add` below.
#import splat::entry(splat_u32)

// Adds fragment `f`'s colour to its pixel's two words.
fn splat_add(f: Fragment) {
    // hi = R21 | G-high-11, lo = G-low-11 | B21.
    let hi_add = (f.color.r << 11u) | (f.color.g >> 11u);
    let lo_add = (f.color.g << 21u) | f.color.b;
    // Two independent adds: the document measured a dependent pair as much slower.
    atomicAdd(&accum[f.status][1], hi_add);
    let previous_lo = atomicAdd(&accum[f.status][0], lo_add);
    // G-low overflowed its 11 bits: carry into G-high, rarely, with a third add.
    let carry = ((previous_lo >> 21u) + (lo_add >> 21u)) >> 11u;
    if carry != 0u {
        atomicAdd(&accum[f.status][1], carry);
    }
}
