//! The CPU twin of `wgsl/bilateral.wgsl`: the same window, weights and order.

use glam::Vec4;

use super::BilateralParams;

/// The twin of [`Bilateral::record`](super::Bilateral::record): the bilateral blur of a
/// `width` x `height` image.
pub fn bilateral_cpu(src: &[Vec4], width: u32, height: u32, params: &BilateralParams) -> Vec<Vec4> {
    let (w, h) = (width as i32, height as i32);
    let r = params.radius() as i32;
    let (spatial, range) = params.coefficients();
    let mut out = Vec::with_capacity(src.len());
    for y in 0..h {
        for x in 0..w {
            let center = src[(y * w + x) as usize];
            let mut sum = Vec4::ZERO;
            let mut total = 0.0f32;
            for dy in -r..=r {
                for dx in -r..=r {
                    let (qx, qy) = ((x + dx).clamp(0, w - 1), (y + dy).clamp(0, h - 1));
                    let c = src[(qy * w + qx) as usize];
                    let d = c.truncate() - center.truncate();
                    let weight = (-((dx * dx + dy * dy) as f32) * spatial - d.dot(d) * range).exp();
                    sum += weight * c;
                    total += weight;
                }
            }
            out.push(sum / total);
        }
    }
    out
}
