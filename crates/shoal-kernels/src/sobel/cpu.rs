//! The CPU twin of `wgsl/sobel.wgsl`, with the correct Sobel operator (see the WGSL for the
//! document's misprinted `Gy`).

use glam::{Vec3, Vec4};

fn luminance(c: Vec3) -> f32 {
    c.dot(Vec3::new(0.299, 0.587, 0.114))
}

/// The inverted edge image: 1 − saturate(luminance(|∇c|)) in every channel.
pub fn sobel(src: &[Vec4], width: u32, height: u32) -> Vec<Vec4> {
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

/// `base × edges`, texel by texel.
pub fn composite_multiply(base: &[Vec4], edges: &[Vec4]) -> Vec<Vec4> {
    base.iter().zip(edges).map(|(b, e)| *b * *e).collect()
}
