//! Sphere ray tracer (the OpenGL compute-shader lesson), and a shaded scene beyond it (`wgsl/raytrace.wgsl`).
//!
//! [`RayTraceArgs`] records the document's: 512 x 512 orthographic rays along -z, a
//! sphere at (0, 0, -10) of radius 1, max_x = max_y = 5, (0.4, 0.4, 1.0, 1.0) where a ray hits,
//! black elsewhere. [`RayTraceSceneArgs`] renders a [`Scene`] from a uniform: spheres and a
//! checkered plane seen through a perspective camera, Lambert shading, hard shadows and one
//! reflection bounce. Both CPU twins repeat the WGSL's arithmetic in f32.

use glam::{Vec3, vec3};
use std::sync::{Arc, Mutex};

use shoal::{Buffer, Commands, Error, Family, Gpu, Image, Kernel, Record, Result, Source};

/// The document's image side.
pub const ORTHO_SIZE: u32 = 512;
/// The document's hit colour.
pub const HIT: [f32; 4] = [0.4, 0.4, 1.0, 1.0];
/// The document's miss colour.
pub const MISS: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
/// Spheres a [`Scene`] holds.
pub const MAX_SPHERES: usize = 4;

/// A sphere of the shaded scene (WGSL `Sphere`).
#[derive(Debug, Clone, Copy, PartialEq, encase::ShaderType)]
pub struct Sphere {
    /// Centre.
    pub center: Vec3,
    /// Radius.
    pub radius: f32,
    /// Diffuse colour.
    pub color: Vec3,
    /// 0: matte; 1: a mirror.
    pub reflectivity: f32,
}

/// The shaded scene, as the WGSL `Scene` uniform lays it out.
#[derive(Debug, Clone, Copy, PartialEq, encase::ShaderType)]
pub struct Scene {
    /// Camera position.
    pub eye: Vec3,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    /// The point the camera looks at.
    pub look_at: Vec3,
    /// The checkered plane is y = plane_y.
    pub plane_y: f32,
    /// Direction towards the light (normalised).
    pub light_dir: Vec3,
    /// Spheres used, at most [`MAX_SPHERES`].
    pub sphere_count: u32,
    /// Colour where nothing is hit.
    pub sky: Vec3,
    /// Light that reaches shadowed and back-facing surfaces, 0..1.
    pub ambient: f32,
    /// Plane colour of the even squares.
    pub plane_a: Vec3,
    /// The plane's reflectivity.
    pub plane_reflectivity: f32,
    /// Plane colour of the odd squares.
    pub plane_b: Vec3,
    /// Padding (WGSL `_pad`).
    pub pad: f32,
    /// The spheres.
    pub spheres: [Sphere; MAX_SPHERES],
}

/// The [`Error::InvalidParameter`] of a scene the ray tracer cannot render.
fn check_scene(s: &Scene) -> Result<()> {
    let bad = |parameter: &str, value: String, rule: &str| {
        Err(Error::InvalidParameter {
            kernel: "RayTracer".into(),
            parameter: parameter.into(),
            value,
            rule: rule.into(),
        })
    };
    let vectors = [
        ("eye", s.eye),
        ("look_at", s.look_at),
        ("light_dir", s.light_dir),
        ("sky", s.sky),
        ("plane_a", s.plane_a),
        ("plane_b", s.plane_b),
    ];
    let scalars = [
        ("fov_y", s.fov_y),
        ("plane_y", s.plane_y),
        ("ambient", s.ambient),
        ("plane_reflectivity", s.plane_reflectivity),
    ];
    let spheres = s.spheres.iter().flat_map(|sp| {
        [sp.center.x, sp.center.y, sp.center.z, sp.radius]
            .into_iter()
            .chain(sp.color.to_array())
            .chain([sp.reflectivity])
    });
    for (name, v) in vectors {
        if !v.is_finite() {
            return bad(name, format!("{v}"), "must be finite");
        }
    }
    for (name, v) in scalars {
        if !v.is_finite() {
            return bad(name, v.to_string(), "must be finite");
        }
    }
    if let Some(v) = spheres.into_iter().find(|v| !v.is_finite()) {
        return bad("spheres", v.to_string(), "every field must be finite");
    }
    if s.sphere_count as usize > MAX_SPHERES {
        let rule = format!("at most MAX_SPHERES = {MAX_SPHERES}");
        return bad("sphere_count", s.sphere_count.to_string(), &rule);
    }
    if !(s.fov_y > 0.0 && s.fov_y < std::f32::consts::PI) {
        return bad("fov_y", s.fov_y.to_string(), "must be in (0, pi) radians");
    }
    // The camera's right is forward x up: it needs a direction, and one that is not vertical.
    let forward = (s.look_at - s.eye).normalize_or_zero();
    if forward.cross(Vec3::Y).length() < 1e-6 {
        let view = format!("from {} to {}", s.eye, s.look_at);
        return bad(
            "look_at",
            view,
            "must differ from the eye, and not straight above or below it (the camera keeps +y up)",
        );
    }
    Ok(())
}

impl Default for Scene {
    /// Three spheres (one a mirror) on a checkerboard under a low sun.
    fn default() -> Self {
        let sphere = |center: Vec3, radius, color: Vec3, reflectivity| Sphere {
            center,
            radius,
            color,
            reflectivity,
        };
        Self {
            eye: vec3(0.0, 1.2, 4.5),
            fov_y: 50f32.to_radians(),
            look_at: vec3(0.0, 0.3, -1.0),
            plane_y: -0.5,
            light_dir: vec3(-0.5, 0.8, 0.35).normalize(),
            sphere_count: 3,
            sky: vec3(0.55, 0.7, 0.9),
            ambient: 0.15,
            plane_a: vec3(0.9, 0.9, 0.9),
            plane_reflectivity: 0.2,
            plane_b: vec3(0.2, 0.2, 0.25),
            pad: 0.0,
            spheres: [
                sphere(vec3(0.0, 0.5, -1.0), 1.0, vec3(0.4, 0.4, 1.0), 0.5),
                sphere(vec3(-1.9, 0.1, 0.0), 0.6, vec3(1.0, 0.5, 0.0), 0.0),
                sphere(vec3(1.6, 0.0, 0.4), 0.5, vec3(0.3, 0.9, 0.4), 0.1),
                sphere(Vec3::ZERO, 0.0, Vec3::ZERO, 0.0),
            ],
        }
    }
}

/// Both ray-tracing kernels, compiled once, and the uniform of the last scene recorded.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::raytrace::ortho_cpu;
/// use shoal_kernels::{RayTraceArgs, RayTracer, Record};
/// let gpu = shoal::Gpu::blocking()?;
/// let image = gpu.image_zeroed(32, 32, shoal::wgpu::TextureFormat::Rgba32Float)?;
/// RayTracer::new(&gpu)?.run(RayTraceArgs { image: &image })?; // the document's sphere, orthographic
/// let (got, cpu) = (image.read_blocking::<[f32; 4]>()?, ortho_cpu(32, 32));
/// let near = |g: &[f32; 4], c: &[f32; 4]| g.iter().zip(c).all(|(g, c)| (g - c).abs() < 1e-3);
/// assert!(got.iter().zip(&cpu).filter(|(g, c)| !near(g, c)).count() <= 2); // a few ulp at edges
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct RayTracer {
    ortho: Kernel,
    scene: Kernel,
    /// Shared by clones: a uniform is never rewritten, a different scene gets a new one.
    last_scene: Arc<Mutex<Option<KeptScene>>>,
}

/// A scene and the uniform that holds it.
type KeptScene = (Scene, Buffer<Scene>);

impl RayTracer {
    /// Compiles both entry points with work groups planned from the device (the document used
    /// 1 x 1 groups, one per pixel): all it runs, so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../wgsl/raytrace.wgsl"))
    }

    /// A ray tracer like [`RayTracer::new`] whose kernels are compiled from `source`, an edited
    /// copy of `wgsl/raytrace.wgsl` with the same entry points and bindings (hot reload). A WGSL
    /// error is [`shoal::Error::Wgsl`] naming the source's file and line.
    pub fn from_source(gpu: &Gpu, source: impl Into<Source>) -> Result<Self> {
        let [ortho, scene] = Self::compile(gpu, &source.into())?;
        Ok(Self {
            ortho,
            scene,
            last_scene: Arc::default(),
        })
    }

    fn compile(gpu: &Gpu, source: &Source) -> Result<[Kernel; 2]> {
        let side = crate::plan_2d(gpu, 16);
        let build = |entry: &str| {
            gpu.kernel_builder(source.clone())
                .entry(entry)
                .constant("WX", side)
                .constant("WY", side)
                .build()
        };
        Ok([build("raytrace_ortho")?, build("raytrace_scene")?])
    }

    /// Recompiles both kernels from `source` (an edited `wgsl/raytrace.wgsl`). On an error the
    /// old kernels stay.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        let gpu = self.ortho.gpu().clone();
        [self.ortho, self.scene] = Self::compile(&gpu, &source.into())?;
        Ok(())
    }

    /// The uniform holding `scene`: the last one if it held the same scene, a new one otherwise.
    fn scene_uniform(&self, scene: &Scene) -> Result<Buffer<Scene>> {
        let mut last = self
            .last_scene
            .lock()
            .map_err(|_| crate::wgsl::poisoned())?;
        match &*last {
            Some((kept, uniform)) if kept == scene => Ok(uniform.clone()),
            _ => {
                let uniform = self.scene.gpu().uniform(scene)?;
                *last = Some((*scene, uniform.clone()));
                Ok(uniform)
            }
        }
    }
}

/// What the document's orthographic sphere writes.
#[derive(Debug, Clone, Copy)]
pub struct RayTraceArgs<'a> {
    /// The image rendered into (rgba32float, any size; the document's is 512 x 512).
    pub image: &'a Image,
}

/// What a shaded scene reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct RayTraceSceneArgs<'a> {
    /// The scene. It is uploaded into a uniform of its own, kept while the same scene is
    /// recorded again, so batches recorded earlier keep the scene they were recorded with.
    pub scene: &'a Scene,
    /// The image rendered into (rgba32float, any size).
    pub image: &'a Image,
}

impl Family for RayTracer {
    fn gpu(&self) -> &Gpu {
        self.ortho.gpu()
    }

    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.ortho, &self.scene]
    }
}

impl Record<RayTraceArgs<'_>> for RayTracer {
    /// Records the document's orthographic sphere.
    fn record(&self, commands: &mut Commands, args: RayTraceArgs<'_>) -> Result<()> {
        let commands = &mut commands.labelled("raytrace");
        self.ortho
            .bind("img_output", args.image)
            .invocations_2d(args.image.size())
            .record(commands)
    }
}

impl Record<RayTraceSceneArgs<'_>> for RayTracer {
    /// Records the scene rendered into the image. A scene the camera cannot frame (a field that
    /// is not finite, the eye at the point looked at, a view straight up or down, a field of
    /// view outside (0, π)) or with more than [`MAX_SPHERES`] spheres is
    /// [`Error::InvalidParameter`]: its every pixel would be NaN, or spheres dropped.
    fn record(&self, commands: &mut Commands, args: RayTraceSceneArgs<'_>) -> Result<()> {
        let RayTraceSceneArgs { scene, image } = args;
        let commands = &mut commands.labelled("raytrace");
        check_scene(scene)?;
        let uniform = self.scene_uniform(scene)?;
        self.scene
            .bind("img_output", image)
            .bind("scene", &uniform)
            .invocations_2d(image.size())
            .record(commands)
    }
}

/// The CPU twin of `raytrace_ortho`: the document's arithmetic per pixel.
pub fn ortho_cpu(width: u32, height: u32) -> Vec<[f32; 4]> {
    let (dx, dy) = (width as i32, height as i32);
    let sphere_c = vec3(0.0, 0.0, -10.0);
    let sphere_r = 1.0f32;
    let (max_x, max_y) = (5.0f32, 5.0f32);
    let mut out = Vec::with_capacity((width * height) as usize);
    for py in 0..dy {
        for px in 0..dx {
            let x = (px * 2 - dx) as f32 / dx as f32;
            let y = (py * 2 - dy) as f32 / dy as f32;
            let ray_o = vec3(x * max_x, y * max_y, 0.0);
            let ray_d = vec3(0.0, 0.0, -1.0);
            let omc = ray_o - sphere_c;
            let b = ray_d.dot(omc);
            let c = omc.dot(omc) - sphere_r * sphere_r;
            out.push(if b * b - c >= 0.0 { HIT } else { MISS });
        }
    }
    out
}

struct Hit {
    t: f32,
    normal: Vec3,
    color: Vec3,
    reflectivity: f32,
}

const FAR: f32 = 1e30;

fn nearest(s: &Scene, o: Vec3, d: Vec3, t_min: f32) -> Hit {
    let mut hit = Hit {
        t: FAR,
        normal: Vec3::ZERO,
        color: s.sky,
        reflectivity: 0.0,
    };
    for sp in &s.spheres[..(s.sphere_count as usize).min(MAX_SPHERES)] {
        let omc = o - sp.center;
        let b = d.dot(omc);
        let c = omc.dot(omc) - sp.radius * sp.radius;
        let disc = b * b - c;
        if disc < 0.0 {
            continue;
        }
        let root = disc.sqrt();
        let mut t = -b - root;
        if t <= t_min {
            t = -b + root;
        }
        if t > t_min && t < hit.t {
            hit = Hit {
                t,
                normal: (o + t * d - sp.center) / sp.radius,
                color: sp.color,
                reflectivity: sp.reflectivity,
            };
        }
    }
    if d.y.abs() > 1e-6 {
        let t = (s.plane_y - o.y) / d.y;
        if t > t_min && t < hit.t {
            let p = o + t * d;
            let checker = (p.x.floor() as i32 + p.z.floor() as i32) & 1;
            let color = if checker == 1 { s.plane_b } else { s.plane_a };
            hit = Hit {
                t,
                normal: Vec3::Y,
                color,
                reflectivity: s.plane_reflectivity,
            };
        }
    }
    hit
}

fn shade(s: &Scene, o: Vec3, d: Vec3, hit: &Hit) -> Vec3 {
    if hit.t >= FAR {
        return s.sky;
    }
    let p = o + hit.t * d;
    let lambert = hit.normal.dot(s.light_dir).max(0.0);
    let shadow = nearest(s, p + hit.normal * 1e-3, s.light_dir, 0.0);
    let lit = if shadow.t < FAR { 0.0 } else { lambert };
    hit.color * (s.ambient + (1.0 - s.ambient) * lit)
}

/// The CPU twin of `raytrace_scene`.
pub fn scene_cpu(s: &Scene, width: u32, height: u32) -> Vec<[f32; 4]> {
    let forward = (s.look_at - s.eye).normalize();
    let right = forward.cross(Vec3::Y).normalize();
    let up = right.cross(forward);
    let half_h = (s.fov_y * 0.5).tan();
    let aspect = width as f32 / height as f32;
    let mut out = Vec::with_capacity((width * height) as usize);
    for gy in 0..height {
        for gx in 0..width {
            let u = ((gx as f32 + 0.5) / width as f32 * 2.0 - 1.0) * half_h * aspect;
            let v = (1.0 - (gy as f32 + 0.5) / height as f32 * 2.0) * half_h;
            let d = (forward + u * right + v * up).normalize();
            let first = nearest(s, s.eye, d, 0.0);
            let mut color = shade(s, s.eye, d, &first);
            if first.t < FAR && first.reflectivity > 0.0 {
                let p = s.eye + first.t * d;
                let r = d - 2.0 * d.dot(first.normal) * first.normal;
                let o = p + first.normal * 1e-3;
                let bounce = shade(s, o, r, &nearest(s, o, r, 0.0));
                color = color.lerp(bounce, first.reflectivity);
            }
            out.push([color.x, color.y, color.z, 1.0]);
        }
    }
    out
}

/// How close the shaded scene comes to [`scene_cpu`]: every channel within this...
pub const SCENE_TOLERANCE: f32 = 2e-3;
/// ...except at most this fraction of pixels, where an edge, a shadow boundary or a checker line
/// falls the other way after different rounding of tan, normalize and sqrt (WGSL allows them a
/// few ulp; SwiftShader in Chromium differed on 0.64% of the pixels, lavapipe on fewer).
pub const SCENE_OUTLIERS: f64 = 0.01;

#[cfg(test)]
mod tests;
