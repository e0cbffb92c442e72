//! The CPU twin of `wgsl/blur.wgsl`: the same taps, clamped at the borders, added in the same
//! order (tap −R first).

use glam::Vec4;

/// One horizontal pass of the 1D blur with `weights` (2R + 1 of them) over a `width` x `height`
/// image stored row by row.
pub fn blur_horizontal(src: &[Vec4], width: u32, height: u32, weights: &[f32]) -> Vec<Vec4> {
    blur_1d(src, width, height, weights, true)
}

/// One vertical pass.
pub fn blur_vertical(src: &[Vec4], width: u32, height: u32, weights: &[f32]) -> Vec<Vec4> {
    blur_1d(src, width, height, weights, false)
}

fn blur_1d(src: &[Vec4], width: u32, height: u32, weights: &[f32], horizontal: bool) -> Vec<Vec4> {
    let (w, h) = (width as i32, height as i32);
    let r = (weights.len() / 2) as i32;
    let mut out = vec![Vec4::ZERO; src.len()];
    for y in 0..h {
        for x in 0..w {
            let mut color = Vec4::ZERO;
            for i in -r..=r {
                let (sx, sy) = if horizontal {
                    ((x + i).clamp(0, w - 1), y)
                } else {
                    (x, (y + i).clamp(0, h - 1))
                };
                color += weights[(i + r) as usize] * src[(sy * w + sx) as usize];
            }
            out[(y * w + x) as usize] = color;
        }
    }
    out
}

/// The twin of [`GaussianBlur::record`](super::GaussianBlur::record): `passes` blur passes with
/// `weights` (as [`gaussian_weights`](super::gaussian_weights) gives them), each horizontal then
/// vertical.
pub fn gaussian_blur_cpu(
    src: &[Vec4],
    width: u32,
    height: u32,
    weights: &[f32],
    passes: u32,
) -> Vec<Vec4> {
    let mut image = src.to_vec();
    for _ in 0..passes {
        let horizontal = blur_horizontal(&image, width, height, weights);
        image = blur_vertical(&horizontal, width, height, weights);
    }
    image
}
