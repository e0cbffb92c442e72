//! Sizes: buffers, append buffers, images and dispatches of any size are made (and read back
//! correctly) or refused with the typed error that names the limit.

use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;
use shoal::wgpu::TextureFormat;
use shoal::{DispatchArgs, Element, Error, Gpu, Usage};

use super::{SMALL_BINDING, SMALL_BUFFER, SMALL_TEXTURE, check, ensure, small_gpu};

/// A `u64` that is often interesting: 0, small, around `limit` (an element count at a device
/// limit), around `u32::MAX` and `u64::MAX`, or anything.
fn size(limit: u64) -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        0u64..64,
        (0u64..5).prop_map(move |d| (limit + d).saturating_sub(2)),
        (0u64..3).prop_map(|d| u32::MAX as u64 - 1 + d),
        (0u64..3).prop_map(|d| u64::MAX - d),
        (0u64..3).prop_map(|d| u64::MAX / 16 + d),
        any::<u64>(),
    ]
}

/// A `u32` that is often interesting, as [`size`].
fn size32(limit: u32) -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        1u32..64,
        (0u32..5).prop_map(move |d| (limit + d).saturating_sub(2)),
        (0u32..3).prop_map(|d| u32::MAX - d),
        any::<u32>(),
    ]
}

fn buffer_case<T: Element + Default + Clone + PartialEq + std::fmt::Debug>(
    gpu: &Gpu,
    (len, first, count, range): (u64, u64, usize, (u64, u64)),
) -> TestCaseResult {
    let limit = gpu.limits().max_buffer_size;
    let fits = (len as u128) * (T::STRIDE as u128) <= limit as u128;
    let buffer = match gpu.buffer_zeroed::<T>(len) {
        Ok(b) => b,
        Err(Error::ResourceTooLarge { limit: l, .. }) if !fits && l == limit => return Ok(()),
        other => return ensure(false, || format!("buffer_zeroed({len}): {other:?}")),
    };
    ensure(fits && buffer.len() == len, || {
        format!("{len} elements made")
    })?;
    let data = vec![T::default(); count];
    let end = first.checked_add(count as u64);
    match buffer.write_at(first, &data) {
        Ok(()) => ensure(end.is_some_and(|e| e <= len), || {
            "write past the end".into()
        })?,
        Err(Error::Length { .. }) => ensure(end.is_none_or(|e| e > len), || {
            "in-range write refused".into()
        })?,
        Err(e) => ensure(false, || format!("write_at({first}, {count}): {e}"))?,
    }
    let (a, b) = range;
    match pollster::block_on(buffer.read_range(a..b)) {
        Ok(v) => ensure(
            a <= b && b <= len && v.len() as u64 == b - a && v.iter().all(|x| *x == T::default()),
            || format!("read {a}..{b} gave {} elements", v.len()),
        )?,
        Err(Error::Length { .. }) => ensure(a > b || b > len, || {
            format!("in-range read {a}..{b} refused")
        })?,
        Err(e) => ensure(false, || format!("read_range({a}..{b}): {e}"))?,
    }
    let from = gpu.buffer_from(&data);
    ensure(from.as_ref().is_ok_and(|b| b.len() == count as u64), || {
        format!("buffer_from({count}): {from:?}")
    })
}

#[test]
fn buffer_sizes_give_buffers_or_typed_errors() {
    let gpu = small_gpu();
    // Lengths around the small device's max_buffer_size counted in u32s (4 bytes) or vec3s (16).
    let lens = prop_oneof![size(SMALL_BUFFER / 4), size(SMALL_BUFFER / 16)];
    let small = || {
        prop_oneof![
            0u64..8,
            (0u64..3).prop_map(|d| u64::MAX - d),
            0u64..(SMALL_BUFFER / 4 + 2)
        ]
    };
    let strategy = (0u8..3, (lens, small(), 0usize..6, (small(), small())));
    check("buffer sizes", strategy, |(kind, case)| match kind {
        0 => buffer_case::<u32>(&gpu, case),
        1 => buffer_case::<shoal::glam::Vec3>(&gpu, case),
        _ => buffer_case::<shoal::glam::UVec2>(&gpu, case),
    });
}

#[test]
fn append_capacities_give_buffers_or_typed_errors() {
    let gpu = small_gpu();
    let limit = SMALL_BINDING.min(SMALL_BUFFER);
    let strategy = (
        size((limit - 16) / 4),
        0u64..10,
        prop_oneof![Just(0u32), 1u32..300, Just(u32::MAX)],
    );
    check("append capacities", strategy, |(capacity, n, per_group)| {
        let fits = 16 + (capacity.max(1) as u128) * 4 <= limit as u128;
        let buffer = match gpu.append_buffer::<u32>(capacity) {
            Ok(b) => b,
            Err(Error::ResourceTooLarge { limit: l, .. }) if !fits && l == limit => return Ok(()),
            other => return ensure(false, || format!("append_buffer({capacity}): {other:?}")),
        };
        ensure(fits, || format!("{capacity} items made"))?;
        let items: Vec<u32> = (0..n as u32).collect();
        match buffer.fill(&items) {
            Ok(()) => {
                ensure(n <= capacity, || "overfilled".into())?;
                let got = pollster::block_on(buffer.read())
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                ensure(got == items, || format!("read {got:?}"))?;
            }
            Err(Error::AppendOverflow { .. }) => ensure(n > capacity, || "fill refused".into())?,
            Err(e) => ensure(false, || format!("fill({n}): {e}"))?,
        }
        let args = gpu
            .buffer_zeroed_with::<DispatchArgs>(1, Usage::STORAGE | Usage::INDIRECT)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut commands = gpu.commands();
        let recorded = buffer.record_dispatch_args(&mut commands, &args, per_group);
        ensure(
            matches!(recorded, Ok(()) | Err(Error::TooManyGroups { .. })),
            || format!("record_dispatch_args: {recorded:?}"),
        )
    });
}

const FORMATS: [TextureFormat; 10] = [
    TextureFormat::Rgba8Unorm,
    TextureFormat::R32Float,
    TextureFormat::Rgba32Float,
    TextureFormat::R8Uint,
    TextureFormat::Rgba16Float,
    TextureFormat::Depth32Float,
    TextureFormat::Depth24PlusStencil8,
    TextureFormat::Bc1RgbaUnorm,
    TextureFormat::Etc2Rgb8Unorm,
    TextureFormat::NV12,
];

#[test]
fn image_sizes_give_images_or_typed_errors() {
    let gpu = small_gpu();
    let strategy = (
        size32(SMALL_TEXTURE),
        size32(SMALL_TEXTURE),
        0..FORMATS.len(),
        -2i64..3,
    );
    check("image sizes", strategy, |(width, height, format, skew)| {
        let format = FORMATS[format];
        let image = match gpu.image_zeroed(width, height, format) {
            Ok(image) => image,
            Err(Error::ImageSize { .. }) => {
                return ensure(
                    width == 0 || height == 0 || width > SMALL_TEXTURE || height > SMALL_TEXTURE,
                    || format!("{width}x{height} refused"),
                );
            }
            // A format this device cannot make (usage, feature) or a size not in its blocks.
            Err(Error::ImageUsage { .. } | Error::InvalidParameter { .. }) => return Ok(()),
            Err(e) => {
                return ensure(false, || {
                    format!("image_zeroed({width}, {height}, {format:?}): {e}")
                });
            }
        };
        let bytes = image.texels() as i64 * image.texel_bytes() as i64;
        let data = vec![1u8; (bytes + skew).max(0) as usize];
        match image.write_bytes(&data) {
            Ok(()) => ensure(skew == 0, || "a write of the wrong length".into())?,
            Err(Error::Length { .. } | Error::InvalidParameter { .. }) => {}
            Err(e) => ensure(false, || format!("write_bytes: {e}"))?,
        }
        match pollster::block_on(image.read_bytes()) {
            Ok(v) => ensure(
                format == TextureFormat::Depth32Float || v.len() as i64 == bytes,
                || format!("read {} bytes of {bytes}", v.len()),
            ),
            Err(Error::InvalidParameter { .. }) => Ok(()),
            Err(e) => ensure(false, || format!("read_bytes: {e}")),
        }
    });
}

const COUNT: &str = "
@group(0) @binding(0) var<storage, read_write> hits: array<atomic<u32>>;
@compute @workgroup_size(64)
fn count(@builtin(local_invocation_index) i: u32) { if i == 0u { atomicAdd(&hits[0], 1u); } }";

#[derive(Debug, Clone)]
enum Grid {
    Groups([u32; 3]),
    Invocations(u64),
    Invocations2d([u32; 2]),
    Invocations3d([u32; 3]),
    Indirect(u64),
}

#[test]
fn dispatch_sizes_run_or_give_typed_errors() {
    let gpu = small_gpu();
    let kernel = gpu
        .kernel(shoal::Source::new("count.wgsl", COUNT))
        .expect("kernel");
    let hits = gpu.buffer_zeroed::<u32>(1).expect("hits");
    let args = gpu
        .buffer_from_with(
            &[DispatchArgs { x: 2, y: 1, z: 1 }; 2],
            Usage::STORAGE | Usage::INDIRECT,
        )
        .expect("args");
    let max = gpu.limits().max_compute_work_group_count;
    let g = || size32(max[0]);
    let grid = prop_oneof![
        [g(), g(), g()].prop_map(Grid::Groups),
        size(max[0] as u64 * 64).prop_map(Grid::Invocations),
        [g(), g()].prop_map(Grid::Invocations2d),
        [g(), g(), g()].prop_map(Grid::Invocations3d),
        size(24).prop_map(Grid::Indirect),
    ];
    check("dispatch sizes", grid, |grid| {
        let d = kernel.bind("hits", &hits);
        let mut folded = None;
        let (d, groups) = match grid.clone() {
            Grid::Groups(x) => (d.groups(x), Some(x.map(u64::from))),
            // Folded over y and z: the count is what must be right, not the shape. A count no
            // fold holds is TooManyGroups, one past the u32 index InvalidParameter (below).
            Grid::Invocations(n) => {
                let groups = n.div_ceil(64);
                let most = max.iter().map(|&m| m as u64).product::<u64>();
                let shape = if groups <= most {
                    [groups.min(1), 1, 1]
                } else {
                    [u64::MAX, 1, 1]
                };
                folded = Some(groups);
                (d.invocations(n), Some(shape))
            }
            Grid::Invocations2d([w, h]) => (
                d.invocations_2d([w, h]),
                Some([w.div_ceil(64) as u64, h as u64, 1]),
            ),
            Grid::Invocations3d(s) => (
                d.invocations_3d(s),
                Some([s[0].div_ceil(64) as u64, s[1] as u64, s[2] as u64]),
            ),
            Grid::Indirect(offset) => (d.indirect(&args, offset), None),
        };
        let mut commands = gpu.commands();
        let recorded = d.record(&mut commands);
        let within = groups.map(|g| (0..3).all(|i| g[i] <= max[i] as u64));
        // WGSL numbers a 1D dispatch's invocations with a u32: at most 2^32 of them, and every
        // count up to that runs (the fold narrows its rows rather than overshoot the index).
        let past_index = matches!(grid, Grid::Invocations(n) if n > 1 << 32);
        match (&recorded, &grid) {
            (Ok(()), _) => ensure(within != Some(false) && !past_index, || {
                format!("{grid:?} over the limit recorded")
            })?,
            (
                Err(Error::InvalidParameter {
                    parameter,
                    value,
                    rule,
                    ..
                }),
                Grid::Invocations(n),
            ) => ensure(
                within == Some(true)
                    && past_index
                    && parameter == "invocations"
                    && *value == n.to_string()
                    && rule.contains("2^32"),
                || format!("{grid:?}: {recorded:?}"),
            )?,
            (Err(Error::TooManyGroups { .. }), _) => ensure(within != Some(true), || {
                format!("{grid:?} within the limit refused")
            })?,
            (
                Err(Error::IndirectOffset { .. } | Error::IndirectOutOfBounds { .. }),
                Grid::Indirect(_),
            ) => {}
            (Err(e), _) => ensure(false, || format!("{grid:?}: {e}"))?,
        }
        // Run only what is quick on a software adapter; the rest was checked, recorded, dropped.
        let total = folded
            .or_else(|| groups.and_then(|g| g.iter().try_fold(1u64, |t, &d| t.checked_mul(d))));
        if recorded.is_ok() && total.is_some_and(|t| t <= 4096) {
            // Each work group adds one: the count read back is the groups that ran.
            let fail = |e: Error| TestCaseError::fail(e.to_string());
            let before = hits.read_blocking().map_err(fail)?[0];
            commands
                .submit()
                .and_then(|s| s.wait_blocking())
                .map_err(fail)?;
            let ran = hits.read_blocking().map_err(fail)?[0].wrapping_sub(before);
            ensure(Some(ran as u64) == total, || {
                format!("{grid:?}: {ran} work groups ran, {total:?} expected")
            })?;
        }
        Ok(())
    });
}
