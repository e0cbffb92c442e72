//! The scenes of the document's benchmark — 'normal', 'spread' and 'clumpy' — from deterministic
//! generators, with a fixed camera and a little opaque geometry (a ground plane and a box) that
//! fills the depth buffer the particles are tested against.

use glam::{Mat4, Vec3, Vec4};
use shoal::SplitMix64;

use super::{Particle, Vertex};

/// The document's three particle configurations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SceneKind {
    /// A representative frame: a few soft clouds over part of the screen.
    Normal,
    /// Particles spread evenly over the whole image (slow for rasterizers in the document).
    Spread,
    /// Particles clumped into a few tiny regions, thousands per pixel (also slow there).
    Clumpy,
}

impl SceneKind {
    /// The three, in the document's column order.
    pub const ALL: [SceneKind; 3] = [SceneKind::Normal, SceneKind::Spread, SceneKind::Clumpy];

    /// The document's name for the scene.
    pub fn name(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Spread => "spread",
            Self::Clumpy => "clumpy",
        }
    }
}

/// A camera for a target of `width` x `height` pixels, in wgpu's clip conventions (z in 0..w).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// World to clip space.
    pub view_proj: Mat4,
    /// Focal length in pixels, `P[1][1] * height / 2`: a world length `s` at clip `w` covers
    /// `s * focal_px / w` pixels.
    pub focal_px: f32,
    /// Target width in pixels.
    pub width: u32,
    /// Target height in pixels.
    pub height: u32,
}

/// Where the particles sit in front of the camera, and the distance at which a particle of
/// [`Camera::particle_size`] projects to exactly one pixel.
const EYE: Vec3 = Vec3::new(0.0, 2.5, 9.0);
const LOOK_AT: Vec3 = Vec3::new(0.0, 1.0, 0.0);
const FOV_Y_DEGREES: f32 = 50.0;
const NEAR: f32 = 0.5;
const FAR: f32 = 100.0;
const UNIT_DISTANCE: f32 = 9.0;

impl Camera {
    /// The scenes' camera for a `width` x `height` target.
    pub fn new(width: u32, height: u32) -> Self {
        let aspect = width.max(1) as f32 / height.max(1) as f32;
        let proj = Mat4::perspective_rh(FOV_Y_DEGREES.to_radians(), aspect, NEAR, FAR);
        let view = Mat4::look_at_rh(EYE, LOOK_AT, Vec3::Y);
        Self {
            view_proj: proj * view,
            focal_px: proj.y_axis.y * height as f32 / 2.0,
            width,
            height,
        }
    }

    /// A camera whose clip space is world space (`view_proj` = identity) and whose focal length is
    /// one pixel: a particle of size 1 at `w = 1` covers exactly one pixel. Tests use it to place
    /// particles on chosen pixels with chosen quantised colours.
    pub fn identity(width: u32, height: u32) -> Self {
        Self {
            view_proj: Mat4::IDENTITY,
            focal_px: 1.0,
            width,
            height,
        }
    }

    /// The world size that projects to one pixel at the scenes' reference distance.
    pub fn particle_size(&self) -> f32 {
        UNIT_DISTANCE / self.focal_px
    }

    /// Window coordinates (pixels, y down) of a world point, or `None` when culled; the CPU
    /// side of `splat_inside` and `splat_window`.
    pub fn window(&self, world: Vec3) -> Option<(Vec4, [f32; 2])> {
        let clip = self.view_proj * world.extend(1.0);
        let inside = clip.w > 0.0
            && clip.x.abs() <= clip.w
            && clip.y.abs() <= clip.w
            && clip.z >= 0.0
            && clip.z <= clip.w;
        if !inside {
            return None;
        }
        let (nx, ny) = (clip.x / clip.w, clip.y / clip.w);
        Some((
            clip,
            [
                (nx * 0.5 + 0.5) * self.width as f32,
                (0.5 - 0.5 * ny) * self.height as f32,
            ],
        ))
    }
}

/// A scene on the CPU: camera, opaque triangles and particles.
#[derive(Debug, Clone)]
pub struct SceneData {
    /// The camera (and the target size it was made for).
    pub camera: Camera,
    /// Opaque triangles (a list, three vertices each).
    pub geometry: Vec<Vertex>,
    /// The particles.
    pub particles: Vec<Particle>,
}

/// A standard normal sample (Box–Muller) from two of `rng`'s uniforms.
fn normal(rng: &mut SplitMix64) -> f32 {
    let u = rng.next_f32().max(1e-7);
    let v = rng.next_f32();
    (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
}

fn hue(rng: &mut SplitMix64) -> Vec3 {
    const PALETTE: [Vec3; 6] = [
        Vec3::new(1.0, 0.45, 0.15),
        Vec3::new(0.2, 0.6, 1.0),
        Vec3::new(0.9, 0.25, 0.8),
        Vec3::new(0.3, 1.0, 0.45),
        Vec3::new(1.0, 0.85, 0.3),
        Vec3::new(0.5, 0.4, 1.0),
    ];
    PALETTE[(rng.next_u64() % PALETTE.len() as u64) as usize]
}

/// A ground plane at y = 0 and a box standing on it, dimly lit so the particles stand out.
pub fn geometry() -> Vec<Vertex> {
    let mut out = Vec::new();
    let mut quad = |corners: [Vec3; 4], color: Vec3| {
        for i in [0, 1, 2, 0, 2, 3] {
            out.push(Vertex {
                position: corners[i].extend(1.0),
                color: color.extend(1.0),
            });
        }
    };
    let g = 40.0;
    quad(
        [
            Vec3::new(-g, 0.0, -g),
            Vec3::new(g, 0.0, -g),
            Vec3::new(g, 0.0, g),
            Vec3::new(-g, 0.0, g),
        ],
        Vec3::new(0.030, 0.034, 0.040),
    );
    let (lo, hi) = (Vec3::new(0.6, 0.0, -0.9), Vec3::new(2.1, 1.5, 0.6));
    let c = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    let shade = [0.09, 0.07, 0.05, 0.06, 0.08, 0.04];
    let faces = [
        [
            c(lo.x, lo.y, hi.z),
            c(hi.x, lo.y, hi.z),
            c(hi.x, hi.y, hi.z),
            c(lo.x, hi.y, hi.z),
        ],
        [
            c(hi.x, lo.y, lo.z),
            c(lo.x, lo.y, lo.z),
            c(lo.x, hi.y, lo.z),
            c(hi.x, hi.y, lo.z),
        ],
        [
            c(lo.x, hi.y, lo.z),
            c(lo.x, hi.y, hi.z),
            c(hi.x, hi.y, hi.z),
            c(hi.x, hi.y, lo.z),
        ],
        [
            c(lo.x, lo.y, lo.z),
            c(lo.x, lo.y, hi.z),
            c(lo.x, hi.y, hi.z),
            c(lo.x, hi.y, lo.z),
        ],
        [
            c(hi.x, lo.y, lo.z),
            c(hi.x, hi.y, lo.z),
            c(hi.x, hi.y, hi.z),
            c(hi.x, lo.y, hi.z),
        ],
        [
            c(lo.x, lo.y, lo.z),
            c(hi.x, lo.y, lo.z),
            c(hi.x, lo.y, hi.z),
            c(lo.x, lo.y, hi.z),
        ],
    ];
    for (face, s) in faces.into_iter().zip(shade) {
        quad(face, Vec3::new(s, s * 0.9, s * 0.8));
    }
    out
}

impl SceneData {
    /// `count` particles of scene `kind` for a `width` x `height` target, from `seed`.
    ///
    /// Brightness is normalised so a pixel looks about the same whatever the particle count and
    /// resolution: the per-particle colour scales with pixels / particles (for 'clumpy', with
    /// the particles per clump), keeping the hottest pixels below [`E_MAX`](super::E_MAX) in the
    /// default scenes.
    pub fn generate(kind: SceneKind, width: u32, height: u32, count: usize, seed: u64) -> Self {
        let camera = Camera::new(width, height);
        let mut rng = SplitMix64::new(seed ^ (kind as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F));
        let size = camera.particle_size();
        let per_pixel = (width as f32 * height as f32) / count.max(1) as f32;
        let mut particles = Vec::with_capacity(count);
        match kind {
            SceneKind::Normal => {
                let clouds: Vec<(Vec3, f32, Vec3)> = (0..7)
                    .map(|_| {
                        let centre = Vec3::new(
                            rng.range_f32(-3.0, 3.0),
                            rng.range_f32(0.6, 2.6),
                            rng.range_f32(-2.5, 2.0),
                        );
                        (centre, rng.range_f32(0.25, 0.6), hue(&mut rng))
                    })
                    .collect();
                for i in 0..count {
                    let (centre, spread, color) = clouds[i % clouds.len()];
                    let p = centre
                        + Vec3::new(normal(&mut rng), normal(&mut rng) * 0.7, normal(&mut rng))
                            * spread;
                    particles.push(particle(p, size, color * (0.35 * per_pixel)));
                }
            }
            SceneKind::Spread => {
                let inverse = camera.view_proj.inverse();
                for _ in 0..count {
                    // Even in screen space: a random pixel and a random distance, unprojected.
                    let (x, y) = (rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
                    let distance = rng.range_f32(4.0, 20.0);
                    let depth = FAR * (distance - NEAR) / (distance * (FAR - NEAR));
                    let p = inverse.project_point3(Vec3::new(x, y, depth));
                    let color = hue(&mut rng);
                    particles.push(particle(p, size, color * (0.45 * per_pixel)));
                }
            }
            SceneKind::Clumpy => {
                const CLUMPS: usize = 12;
                // A clump is a Gaussian a few pixels wide whatever the resolution.
                let sigma = 2.0 * UNIT_DISTANCE / camera.focal_px;
                let clumps: Vec<(Vec3, Vec3)> = (0..CLUMPS)
                    .map(|_| {
                        (
                            Vec3::new(
                                rng.range_f32(-3.5, 3.5),
                                rng.range_f32(0.4, 3.0),
                                rng.range_f32(-2.0, 2.0),
                            ),
                            hue(&mut rng),
                        )
                    })
                    .collect();
                // The peak pixel of a Gaussian of sigma 2 px holds 1/(2 pi 4) of its particles.
                let per_clump = count.max(1) as f32 / CLUMPS as f32;
                let brightness = 8.0 / (per_clump / (std::f32::consts::TAU * 4.0)).max(1.0);
                for i in 0..count {
                    let (centre, color) = clumps[i % CLUMPS];
                    let p = centre
                        + Vec3::new(normal(&mut rng), normal(&mut rng), normal(&mut rng)) * sigma;
                    particles.push(particle(p, size, color * brightness));
                }
            }
        }
        Self {
            camera,
            geometry: geometry(),
            particles,
        }
    }

    /// Moves every visible particle onto its pixel's centre (keeping its depth).
    ///
    /// The rasterizer snaps vertices to its sub-pixel grid (8 bits on Mesa) before it decides
    /// which pixel a point covers, so a particle within 1/512 pixel of a pixel edge may land on
    /// the neighbour there and not in the compute path. Comparing the two pictures pixel by
    /// pixel needs particles away from the edges; centring them keeps the scene's shape.
    pub fn centre_on_pixels(&mut self) {
        let inverse = self.camera.view_proj.inverse();
        let (w, h) = (self.camera.width as f32, self.camera.height as f32);
        for p in &mut self.particles {
            let Some((clip, window)) = self.camera.window(p.position.truncate()) else {
                continue;
            };
            let centre = [
                window[0].floor().min(w - 1.0) + 0.5,
                window[1].floor().min(h - 1.0) + 0.5,
            ];
            let ndc = Vec3::new(
                centre[0] / w * 2.0 - 1.0,
                1.0 - centre[1] / h * 2.0,
                clip.z / clip.w,
            );
            let world = inverse.project_point3(ndc);
            p.position = world.extend(p.position.w);
        }
    }
}

fn particle(position: Vec3, size: f32, color: Vec3) -> Particle {
    Particle {
        position: position.extend(size),
        color: color.extend(0.0),
    }
}
