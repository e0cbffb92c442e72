//! The CPU twin of `wgsl/splat_common.wgsl`, `splat.wgsl` and `splat_int64.wgsl`, function for
//! function, to be read beside them. Tests feed it the fragments the GPU's `project_particles`
//! wrote (so both sides add exactly the same integers to exactly the same pixels) and compare the
//! per-pixel words bit for bit; its own projection is checked against the GPU's separately.

use glam::Vec3;

use super::scene::Camera;
use super::{E_MAX, I_MAX, Packing, Particle, TILE};

/// `status` of a particle outside the view frustum (`SPLAT_CULLED`).
pub const CULLED: u32 = u32::MAX;
/// `status` of a particle behind the opaque scene (`SPLAT_HIDDEN`).
pub const HIDDEN: u32 = u32::MAX - 1;

/// A particle's fragment as `project_particles` writes it: `[status, r, g, b]`, where `status` is
/// [`CULLED`], [`HIDDEN`] or the pixel index `y * width + x`.
pub type Fragment = [u32; 4];

/// `I_max / E_max` per channel: the float-to-integer scale of `c_i = round(c_f * I_max / E_max)`.
pub fn scale() -> [f32; 3] {
    I_MAX.map(|i| i as f32 / E_MAX)
}

/// `splat_quantise`: round half to even as WGSL's `round`, each channel saturating at its `I_max`.
pub fn quantise(c: Vec3) -> [u32; 3] {
    let s = scale();
    let c = c.max(Vec3::ZERO).to_array();
    // `as u32` saturates like WGSL's float-to-u32 conversion.
    [0, 1, 2].map(|i| ((c[i] * s[i]).round_ties_even() as u32).min(I_MAX[i]))
}

/// `splat_color`: the particle's colour times its projected area over one pixel.
pub fn color(p: &Particle, clip_w: f32, focal_px: f32) -> Vec3 {
    let side = p.position.w * focal_px / clip_w;
    p.color.truncate() * (side * side)
}

/// `splat_pixel`: `round(window - 0.5)`, clamped into the image (to 0 on a side of 0).
pub fn pixel(window: [f32; 2], width: u32, height: u32) -> [u32; 2] {
    let at = |v: f32, n: u32| {
        ((v - 0.5).round_ties_even() as i64).clamp(0, (n as i64 - 1).max(0)) as u32
    };
    [at(window[0], width), at(window[1], height)]
}

/// `splat_fragment` against the full-resolution `depth` (row-major, `width * height`). The coarse
/// level only decides whether the full-resolution texel must be read; it never changes the answer,
/// since a tile's minimum is at most each of its texels.
pub fn fragment(camera: &Camera, p: &Particle, depth: &[f32]) -> Fragment {
    let Some((clip, window)) = camera.window(p.position.truncate()) else {
        return [CULLED, 0, 0, 0];
    };
    let [x, y] = pixel(window, camera.width, camera.height);
    // As the WGSL's u32 arithmetic: wrapping, never a panic (an image's sides keep it in range).
    let index = y.wrapping_mul(camera.width).wrapping_add(x);
    let z = clip.z / clip.w;
    // Written as the WGSL's `!(depth < texel)`: a NaN depth fails the test there too.
    let passes = z < depth.get(index as usize).copied().unwrap_or(1.0);
    if !passes {
        return [HIDDEN, 0, 0, 0];
    }
    let [r, g, b] = quantise(color(p, clip.w, camera.focal_px));
    [index, r, g, b]
}

/// `build_hiz`: the minimum depth of each 16 x 16 tile (tiles at the edges cover what is there).
pub fn build_hiz(depth: &[f32], width: u32, height: u32) -> Vec<f32> {
    let (tw, th) = (width.div_ceil(TILE), height.div_ceil(TILE));
    let mut out = vec![1.0f32; (tw * th) as usize];
    for y in 0..height {
        for x in 0..width {
            let t = ((y / TILE) * tw + x / TILE) as usize;
            out[t] = out[t].min(depth[(y * width + x) as usize]);
        }
    }
    out
}

/// `splat_u32`'s adds on one pixel's `[lo, hi]`, in the document's order. Returns whether the
/// third (carry) add ran.
pub fn add_u32(words: &mut [u32; 2], [r, g, b]: [u32; 3]) -> bool {
    let hi_add = (r << 11) | (g >> 11);
    let lo_add = (g << 21) | b;
    words[1] = words[1].wrapping_add(hi_add);
    let previous_lo = words[0];
    words[0] = words[0].wrapping_add(lo_add);
    let carry = ((previous_lo >> 21) + (lo_add >> 21)) >> 11;
    if carry != 0 {
        words[1] = words[1].wrapping_add(carry);
    }
    carry != 0
}

/// `splat_u64`'s one add of R21G22B21 on the same 8 bytes (low word = `lo`).
pub fn add_u64(words: &mut [u32; 2], [r, g, b]: [u32; 3]) {
    let value = ((r as u64) << 43) | ((g as u64) << 21) | b as u64;
    let sum = (((words[1] as u64) << 32) | words[0] as u64).wrapping_add(value);
    *words = [sum as u32, (sum >> 32) as u32];
}

/// The per-pixel words after adding every visible fragment, and how many carry adds ran (2 x u32).
pub fn accumulate_cpu(
    fragments: &[Fragment],
    pixels: usize,
    packing: Packing,
) -> (Vec<[u32; 2]>, usize) {
    let mut words = vec![[0u32; 2]; pixels];
    let mut carries = 0;
    for &[status, r, g, b] in fragments {
        let Some(w) = words.get_mut(status as usize) else {
            continue;
        };
        match packing {
            Packing::TwoU32 => carries += add_u32(w, [r, g, b]) as usize,
            Packing::Int64 => add_u64(w, [r, g, b]),
        }
    }
    (words, carries)
}

/// The composite's unpacking of `[lo, hi]` into R (21 bits), G (22) and B (21).
pub fn unpack([lo, hi]: [u32; 2]) -> [u32; 3] {
    [hi >> 11, ((hi & 0x7FF) << 11) | (lo >> 21), lo & 0x1F_FFFF]
}

/// The colour the composite adds for one pixel's words.
pub fn unpack_color(words: [u32; 2]) -> Vec3 {
    let q = unpack(words);
    let s = scale();
    Vec3::new(q[0] as f32 / s[0], q[1] as f32 / s[1], q[2] as f32 / s[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_packings_agree_without_overflow_and_unpack_the_sum() {
        let adds = [
            [1_000_000, 2_047, 5],
            [3, 1_500, 2_000_000],
            [17, 4_000_000, 0],
            [0, 2_047, 1],
        ];
        let (mut a, mut b) = ([0u32; 2], [0u32; 2]);
        let mut carries = 0;
        for q in adds {
            carries += add_u32(&mut a, q) as usize;
            add_u64(&mut b, q);
        }
        assert_eq!(a, b);
        assert!(carries > 0, "G-low overflowed, so the carry add ran");
        let sum = adds
            .iter()
            .fold([0u32; 3], |s, q| [s[0] + q[0], s[1] + q[1], s[2] + q[2]]);
        assert_eq!(unpack(a), sum);
    }

    #[test]
    fn overflow_wraps_and_spills_into_the_next_channel_up() {
        // R wraps and is lost off the top; G's overflow lands in R; B's in G.
        let (mut a, mut b) = ([0u32; 2], [0u32; 2]);
        for q in [[I_MAX[0], 0, 0], [2, 0, 0]] {
            add_u32(&mut a, q);
            add_u64(&mut b, q);
        }
        assert_eq!((unpack(a), unpack(b)), ([1, 0, 0], [1, 0, 0]));
        let (mut a, mut b) = ([0u32; 2], [0u32; 2]);
        for q in [[0, I_MAX[1], 0], [0, 3, 0]] {
            add_u32(&mut a, q);
            add_u64(&mut b, q);
        }
        assert_eq!((unpack(a), unpack(b)), ([1, 2, 0], [1, 2, 0]));
        let (mut a, mut b) = ([0u32; 2], [0u32; 2]);
        for q in [[0, 0, I_MAX[2]], [0, 0, 5]] {
            add_u32(&mut a, q);
            add_u64(&mut b, q);
        }
        assert_eq!((unpack(a), unpack(b)), ([0, 1, 4], [0, 1, 4]));
    }

    #[test]
    fn a_b_carry_that_tips_g_low_over_is_lost_by_the_two_word_packing() {
        // G-low at 2047 plus a carry out of B overflows the lo word itself; the document's carry
        // test only sees the two G-low fields (2047 + 0), so 2 x u32 loses it; 1 x 64-bit keeps it.
        let (mut a, mut b) = ([0u32; 2], [0u32; 2]);
        for q in [[0, 2_047, I_MAX[2]], [0, 0, 1]] {
            add_u32(&mut a, q);
            add_u64(&mut b, q);
        }
        assert_eq!(unpack(a), [0, 0, 0]);
        assert_eq!(unpack(b), [0, 2_048, 0]);
    }
}
