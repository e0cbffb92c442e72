//! Renders the pictures of `docs/filters.md` and `docs/simulations.md` into `docs/images/`:
//! the procedural test picture, blurred, its Sobel edges, the cartoon composite and the
//! bilateral filter; a wave height field; a snapshot of a boids flock. Every picture is what the
//! GPU computed, checked against the CPU twin before it is written.
//!
//! `SHOAL_BACKEND=vulkan cargo run -p shoal-demos --bin docs-sims`

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use shoal::Gpu;
use shoal::glam::{Vec3, Vec4};
use shoal::wgpu::TextureFormat;
use shoal_kernels::test_image::test_image;
use shoal_kernels::{
    Bilateral, BilateralArgs, BilateralParams, BlurArgs, BlurParams, Boids, BoidsStepArgs, Cartoon,
    CartoonArgs, CartoonParams, GaussianBlur, Record, Sobel, SobelArgs, WaveParams, Waves,
    WavesDisturbArgs, WavesStep, blur, boids, sobel, waves,
};

type Failure = Box<dyn std::error::Error>;

const W: u32 = 256;
const H: u32 = 192;

fn write_png(path: &Path, width: u32, height: u32, rgb: &[[u8; 3]]) -> Result<(), Failure> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb.iter().flatten().copied().collect::<Vec<u8>>())?;
    println!("wrote {}", path.display());
    Ok(())
}

fn to_rgb(c: Vec4) -> [u8; 3] {
    let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
    [q(c.x), q(c.y), q(c.z)]
}

fn check(what: &str, got: &[Vec4], want: &[Vec4], tolerance: f32) -> Result<(), Failure> {
    let worst = got
        .iter()
        .zip(want)
        .map(|(g, w)| (*g - *w).abs().max_element())
        .fold(0.0f32, f32::max);
    if worst > tolerance {
        return Err(format!("{what}: GPU and CPU differ by {worst}").into());
    }
    println!("{what}: GPU matches the CPU twin (max difference {worst:.1e})");
    Ok(())
}

fn filters(gpu: &Gpu, dir: &Path) -> Result<(), Failure> {
    let src = test_image(W, H);
    let image = |texels: &[Vec4]| gpu.image_from(W, H, TextureFormat::Rgba32Float, texels);
    let save = |name: &str, texels: &[Vec4]| {
        write_png(
            &dir.join(name),
            W,
            H,
            &texels.iter().map(|c| to_rgb(*c)).collect::<Vec<_>>(),
        )
    };
    save("filters-original.png", &src)?;

    let blurred = image(&src)?;
    let gaussian = GaussianBlur::new(
        gpu,
        BlurParams {
            sigma: 2.5,
            ..BlurParams::default()
        },
    )?;
    gaussian.run(BlurArgs {
        image: &blurred,
        passes: 3,
    })?;
    let got: Vec<Vec4> = blurred.read_blocking()?;
    check(
        "blur",
        &got,
        &blur::gaussian_blur_cpu(&src, W, H, gaussian.weights(), 3),
        1e-5,
    )?;
    save("filters-blur.png", &got)?;

    let original = image(&src)?;
    let out = gpu.image_zeroed(W, H, TextureFormat::Rgba32Float)?;
    let (src_image, dst) = (&original, &out);
    Sobel::new(gpu)?.run(SobelArgs {
        src: src_image,
        dst,
    })?;
    let got: Vec<Vec4> = out.read_blocking()?;
    check("sobel", &got, &sobel::sobel_cpu(&src, W, H), 1e-5)?;
    save("filters-sobel.png", &got)?;

    let params = CartoonParams {
        sigma: 1.5,
        passes: 2,
    };
    Cartoon::new(gpu, params)?.run(CartoonArgs {
        src: src_image,
        dst,
    })?;
    let got: Vec<Vec4> = out.read_blocking()?;
    check(
        "cartoon",
        &got,
        &sobel::cartoon_cpu(&src, W, H, &params)?,
        1e-4,
    )?;
    save("filters-cartoon.png", &got)?;

    let params = BilateralParams {
        spatial_sigma: 3.0,
        range_sigma: 0.2,
    };
    Bilateral::new(gpu, params)?.run(BilateralArgs {
        src: src_image,
        dst,
    })?;
    let got: Vec<Vec4> = out.read_blocking()?;
    check(
        "bilateral",
        &got,
        &shoal_kernels::bilateral::bilateral_cpu(&src, W, H, &params),
        2e-5,
    )?;
    save("filters-bilateral.png", &got)
}

fn wave_picture(gpu: &Gpu, dir: &Path) -> Result<(), Failure> {
    let size = waves::DOCUMENT_SIZE;
    let params = WaveParams {
        width: size,
        height: size,
        ..WaveParams::default()
    };
    let surface = Waves::new(gpu, params)?;
    let mut cpu = waves::cpu::WavesCpu::new(size, size, surface.constants());
    for (x, y, m) in [(180u32, 200u32, 1.5f32), (330, 300, 1.0), (256, 120, -1.0)] {
        surface.run(WavesDisturbArgs { x, y, magnitude: m })?;
        cpu.disturb(x, y, m);
        let mut commands = gpu.commands();
        for _ in 0..300 {
            surface.record(&mut commands, WavesStep)?;
        }
        commands.submit()?;
        (0..300).for_each(|_| cpu.step());
    }
    let heights = surface.read_blocking()?;
    let as_vec4 = |h: &[f32]| h.iter().map(|&v| Vec4::splat(v)).collect::<Vec<_>>();
    check("waves", &as_vec4(&heights), &as_vec4(&cpu.curr), 1e-3)?;
    let scale = heights.iter().fold(1e-6f32, |m, h| m.max(h.abs()));
    let rgb: Vec<[u8; 3]> = heights
        .iter()
        .map(|&h| {
            let t = (2.0 * h / scale).clamp(-1.0, 1.0);
            let deep = Vec3::new(0.05, 0.2, 0.45);
            let c = if t >= 0.0 {
                deep.lerp(Vec3::new(0.9, 0.95, 1.0), t)
            } else {
                deep.lerp(Vec3::ZERO, -t)
            };
            to_rgb(c.extend(1.0))
        })
        .collect();
    write_png(&dir.join("waves-height.png"), size, size, &rgb)
}

fn flock_picture(gpu: &Gpu, dir: &Path) -> Result<(), Failure> {
    let n = 1024;
    let flock = Boids::new(gpu, &boids::document_flock(n))?;
    let steps = 120;
    let dt = 1.0 / 60.0;
    let times: Vec<f32> = (0..steps).map(|s| s as f32 * dt).collect();
    let mut commands = gpu.commands();
    for &t in &times[..steps - 1] {
        flock.record(&mut commands, BoidsStepArgs { time: t })?;
    }
    commands.submit()?.wait_blocking()?;
    let before = flock.read_blocking()?;
    flock.run(BoidsStepArgs {
        time: times[steps - 1],
    })?;
    let members = flock.read_blocking()?;
    let params = boids::Params::at(times[steps - 1], flock.rules());
    let want = boids::cpu::boids_step_cpu(&before, &params);
    let pack = |m: &[boids::Member]| {
        m.iter()
            .flat_map(|m| [m.position.extend(0.0), m.velocity.extend(0.0)])
            .collect::<Vec<_>>()
    };
    check("boids (last step)", &pack(&members), &pack(&want), 1e-2)?;
    // Looking down the z axis, as the document's camera does, at ±200 units.
    let size = 320u32;
    let mut rgb = vec![[250u8, 250, 252]; (size * size) as usize];
    for (i, m) in members.iter().enumerate() {
        let f = (i as f32 / 1237.0).fract();
        // The document's choose_color.
        let tau = std::f32::consts::TAU;
        let c = Vec3::new(
            (f * tau).sin(),
            ((f + 0.3333) * tau).sin(),
            ((f + 0.6666) * tau).sin(),
        ) * 0.25
            + Vec3::splat(0.45);
        let head = m.position.truncate();
        let tail = head - m.velocity.truncate().normalize_or_zero() * 4.0;
        for k in 0..=6 {
            let p = tail.lerp(head, k as f32 / 6.0);
            let (x, y) = (
                ((p.x / 200.0) * 0.5 + 0.5) * size as f32,
                ((-p.y / 200.0) * 0.5 + 0.5) * size as f32,
            );
            if (0.0..size as f32).contains(&x) && (0.0..size as f32).contains(&y) {
                rgb[(y as u32 * size + x as u32) as usize] = to_rgb(c.extend(1.0));
            }
        }
    }
    write_png(&dir.join("boids-snapshot.png"), size, size, &rgb)
}

fn main() -> ExitCode {
    env_logger::init();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/images");
    let run = || -> Result<(), Failure> {
        std::fs::create_dir_all(&dir)?;
        let gpu = Gpu::blocking()?;
        println!("rendering on {}", gpu.adapter_details());
        filters(&gpu, &dir)?;
        wave_picture(&gpu, &dir)?;
        flock_picture(&gpu, &dir)
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("docs-sims: {e}");
            ExitCode::FAILURE
        }
    }
}
