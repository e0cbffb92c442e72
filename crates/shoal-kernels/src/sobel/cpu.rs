//! The CPU twin of `wgsl/sobel.wgsl`, with the correct Sobel operator (see the WGSL for the
//! document's misprinted `Gy`).

use glam::{Vec3, Vec4};
use shoal::Result;

use super::CartoonParams;
use crate::blur::{gaussian_blur_cpu, gaussian_weights};

fn luminance(c: Vec3) -> f32 {
    c.dot(Vec3::new(0.299, 0.587, 0.114))
}

/// The twin of [`Sobel::record`](super::Sobel::record): the inverted edge image,
/// 1 − saturate(luminance(|∇c|)) in every channel, the borders clamped.
pub fn sobel_cpu(src: &[Vec4], width: u32, height: u32) -> Vec<Vec4> {
    let (w, h) = (width as i32, height as i32);
    let at = |x: i32, y: i32| src[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize];
    let mut out = Vec::with_capacity(src.len());
    for y in 0..h {
        for x in 0..w {
            // c[row][column], row = dy + 1, column = dx + 1, as the document indexes.
            let c = |i: i32, j: i32| at(x - 1 + j, y - 1 + i);
            let gx = -1.0 * c(0, 0) - 2.0 * c(1, 0) - 1.0 * c(2, 0)
                + 1.0 * c(0, 2)
                + 2.0 * c(1, 2)
                + 1.0 * c(2, 2);
            let gy = -1.0 * c(2, 0) - 2.0 * c(2, 1) - 1.0 * c(2, 2)
                + 1.0 * c(0, 0)
                + 2.0 * c(0, 1)
                + 1.0 * c(0, 2);
            let mag = (gx * gx + gy * gy).powf(0.5);
            out.push(Vec4::splat(1.0 - luminance(mag.truncate()).clamp(0.0, 1.0)));
        }
    }
    out
}

/// The twin of the multiply ([`MultiplyArgs`](super::MultiplyArgs)): `base × edges`, texel
/// by texel.
pub fn composite_multiply_cpu(base: &[Vec4], edges: &[Vec4]) -> Vec<Vec4> {
    base.iter().zip(edges).map(|(b, e)| *b * *e).collect()
}

/// The twin of [`Cartoon::record`](super::Cartoon::record): `params.passes` blur passes of σ
/// `params.sigma`, the edges of the blurred image, and the blurred image times its edges. An
/// invalid σ is the error [`Cartoon::new`](super::Cartoon::new) gives.
pub fn cartoon_cpu(
    src: &[Vec4],
    width: u32,
    height: u32,
    params: &CartoonParams,
) -> Result<Vec<Vec4>> {
    let weights = gaussian_weights(params.sigma)?;
    let blurred = gaussian_blur_cpu(src, width, height, &weights, params.passes);
    let edges = sobel_cpu(&blurred, width, height);
    Ok(composite_multiply_cpu(&blurred, &edges))
}
