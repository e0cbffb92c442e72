//! A procedural test picture for the image filters: smooth gradients, hard-edged shapes and
//! fine stripes, so a blur, an edge detector and a bilateral filter each have something to do.
//! Deterministic, any size, RGBA in [0, 1] with alpha 1.

use glam::{Vec3, Vec4};

/// The picture at `width` x `height`, row by row.
pub fn test_image(width: u32, height: u32) -> Vec<Vec4> {
    let (w, h) = (width.max(1) as f32, height.max(1) as f32);
    let mut out = Vec::with_capacity(width as usize * height as usize);
    for y in 0..height {
        for x in 0..width {
            let (u, v) = ((x as f32 + 0.5) / w, (y as f32 + 0.5) / h);
            // A sky-to-sand gradient as the background.
            let mut c = Vec3::new(0.25 + 0.5 * u, 0.45 + 0.3 * v, 0.85 - 0.5 * v);
            // A disc, a square and a triangle with hard edges.
            if (u - 0.3).powi(2) + (v - 0.35).powi(2) < 0.04 {
                c = Vec3::new(0.95, 0.75, 0.15);
            }
            if (u - 0.72).abs() < 0.14 && (v - 0.62).abs() < 0.18 {
                c = Vec3::new(0.7, 0.15, 0.2);
            }
            if v > 0.7 && (u - 0.3).abs() < (v - 0.7) * 0.9 {
                c = Vec3::new(0.1, 0.5, 0.25);
            }
            // Fine stripes in a band: detail a blur removes and Sobel finds.
            if (0.08..0.16).contains(&v) && (x / 3) % 2 == 0 {
                c *= 0.55;
            }
            out.push(c.extend(1.0));
        }
    }
    out
}
