//! Every WGSL variant the kernels crate composes, without a device: each family's sources for the
//! configurations it can take — value and key types, the built-in operations, the tilings its
//! planner chooses for each [`DeviceProfile`], with and without subgroups — built by the
//! family's own source function (the one its constructor calls), so that `cargo xtask
//! check-wgsl` validates what runs and `cargo xtask wgsl` prints it.

use shoal::glam::{IVec2, IVec4, UVec2, UVec4, Vec2, Vec4};
use shoal::{DeviceProfile, PROFILE_NAMES, Result, Source};

use crate::scan::{Tiling, scan_source};
use crate::value::{Shape, Value};
use crate::wgsl::Op;

/// One composed variant: the family, the configuration it was planned for, and its source
/// (with the kernels crate's snippets, ready for [`Source::wgsl`] or [`shoal::validate`]).
#[derive(Debug, Clone)]
pub struct Variant {
    /// The family's name, as `cargo xtask wgsl` takes it.
    pub family: &'static str,
    /// The configuration: device profile, types, operation, tiling.
    pub config: String,
    /// The source the family compiles for it.
    pub source: Source,
}

/// The families `cargo xtask wgsl` prints, with what each does.
pub const FAMILIES: &[(&str, &str)] = &[
    (
        "scan",
        "prefix scans, reductions and the work-group scan (Scan, Reduce, WorkgroupScan)",
    ),
    (
        "radix_sort",
        "sorts of keys and of key-value pairs (RadixSort)",
    ),
    (
        "compact",
        "stream compaction by flags or a predicate (Compact)",
    ),
    (
        "segmented",
        "segmented scans, reduce-by-key and run lengths (Segmented)",
    ),
    ("histogram", "counts of values per bin (Histogram)"),
    ("matmul", "matrix products, tiled and naive (Matmul)"),
    ("invert", "an image's colours inverted (Invert)"),
    (
        "texture_add",
        "two images added texel by texel (TextureAdd)",
    ),
    ("sobel", "edges of an image (Sobel)"),
    ("blur", "Gaussian blur (GaussianBlur)"),
    ("bilateral", "edge-preserving blur (Bilateral)"),
    ("grid", "a grid written by a 2D dispatch (Grid)"),
    ("raytrace", "spheres ray traced (RayTracer)"),
    ("particles", "particles in a force field (Particles)"),
    ("waves", "the wave equation on a grid (Waves)"),
    ("vector_lengths", "lengths of 3D vectors (VectorLengths)"),
    ("boids", "flocking, the tiled and the naive kernel (Boids)"),
    (
        "splat",
        "particle splatting: the compute kernels of each packing and the raster module (Splat)",
    ),
];

/// The value types a scan takes, by their WGSL names (`--key`).
pub const SCAN_KEYS: &[&str] = &[
    "u32",
    "i32",
    "f32",
    "vec2<u32>",
    "vec4<u32>",
    "vec2<i32>",
    "vec4<i32>",
    "vec2<f32>",
    "vec4<f32>",
];

/// The built-in operations, by their `--op` names.
pub const OPS: &[(&str, Op)] = &[("sum", Op::Sum), ("min", Op::Min), ("max", Op::Max)];

/// The key types a radix sort takes (`--key`).
pub const SORT_KEYS: &[&str] = &["u32", "i32", "f32", "u64", "i64"];

/// What `cargo xtask wgsl` chose: each `None` takes every value (the check) or the default
/// (the printout).
#[derive(Debug, Clone, Default)]
pub struct Choice {
    /// The value or key type (`--key`).
    pub key: Option<String>,
    /// The sort order, `asc` or `desc` (`--order`).
    pub order: Option<String>,
    /// The operation's name (`--op`).
    pub op: Option<String>,
    /// The device profile's name (`--limits`).
    pub limits: Option<String>,
}

/// Every variant of every family, on each of the four profiles with and without subgroups.
pub fn all() -> Vec<Variant> {
    FAMILIES
        .iter()
        .flat_map(|(family, _)| of(family, &Choice::default(), true).unwrap_or_default())
        .collect()
}

/// The variants of `family` that `choice` selects: a missing choice takes every value where
/// `every` (the check), else the default (`u32`, `asc`, `sum`, `lavapipe` as it is). An unknown
/// family, value or an option the family does not take is an error listing the valid ones.
pub fn of(family: &str, choice: &Choice, every: bool) -> std::result::Result<Vec<Variant>, String> {
    let Some(&(family, _)) = FAMILIES.iter().find(|(name, _)| *name == family) else {
        let names: Vec<&str> = FAMILIES.iter().map(|f| f.0).collect();
        return Err(format!(
            "unknown family `{family}`: one of {}",
            names.join(", ")
        ));
    };
    let takes = |option: &str, value: &Option<String>, valid: &[&str]| match value {
        Some(v) if valid.is_empty() => Err(format!("{family} takes no --{option} (given `{v}`)")),
        Some(v) if !valid.contains(&v.as_str()) => Err(format!(
            "unknown --{option} `{v}` for {family}: one of {}",
            valid.join(", ")
        )),
        _ => Ok(()),
    };
    let op_names: Vec<&str> = OPS.iter().map(|o| o.0).collect();
    let (keys, orders, ops): (&[&str], &[&str], &[&str]) = match family {
        "scan" => (SCAN_KEYS, &[], &op_names),
        "radix_sort" => (SORT_KEYS, &["asc", "desc"], &[]),
        _ => (&[], &[], &[]),
    };
    takes("key", &choice.key, keys)?;
    takes("order", &choice.order, orders)?;
    takes("op", &choice.op, ops)?;
    takes("limits", &choice.limits, &PROFILE_NAMES)?;
    let profiles = profiles(choice.limits.as_deref(), every);
    let pick = |list: &[&str], given: &Option<String>| -> Vec<String> {
        match given {
            Some(v) => vec![v.clone()],
            None if every => list.iter().map(|s| s.to_string()).collect(),
            None => list
                .first()
                .map(|s| vec![s.to_string()])
                .unwrap_or_default(),
        }
    };
    let mut out = Vec::new();
    for (name, profile) in &profiles {
        let mut push = |config: String, source: Source| {
            out.push(Variant {
                family,
                config: format!("{name}: {config}"),
                source: crate::with_snippets(source),
            })
        };
        match family {
            "scan" => {
                for key in pick(SCAN_KEYS, &choice.key) {
                    for op in pick(&op_names, &choice.op) {
                        let op = OPS.iter().find(|o| o.0 == op).map_or(Op::Sum, |o| o.1);
                        for (config, source) in
                            scan_variants(&key, op, profile).map_err(|e| e.to_string())?
                        {
                            push(format!("{key}, {op:?}, {config}"), source);
                        }
                    }
                }
            }
            "radix_sort" => {
                let tiling = crate::SortTiling::plan(profile);
                // Keys and order are run-time parameters of the sort's kernels: one text for all.
                let keys = match (&choice.key, &choice.order) {
                    (None, None) if every => "every key and order".to_string(),
                    (key, order) => format!(
                        "{} keys, {} (the same text for every key and order)",
                        key.as_deref().unwrap_or("u32"),
                        order.as_deref().unwrap_or("asc")
                    ),
                };
                for (config, source) in crate::radix_sort::variants(tiling) {
                    push(format!("{keys}, {tiling:?}, {config}"), source);
                }
            }
            "compact" | "segmented" => {
                let made = match family {
                    "compact" => crate::compact::variants(profile),
                    _ => crate::segmented::variants(profile),
                };
                for (config, source) in made.map_err(|e| e.to_string())? {
                    push(config, source);
                }
            }
            "histogram" => {
                for (config, source) in crate::histogram::variants(profile) {
                    push(config, source);
                }
            }
            "matmul" => {
                let tiling = crate::MatmulTiling::plan(profile);
                push(format!("{tiling:?}"), tiling.source());
            }
            "boids" => {
                // Both kernels are entry points of the one module.
                let entries: Vec<String> = (crate::boids::Variant::ALL.iter())
                    .map(|v| format!("{v:?} ({})", v.entry()))
                    .collect();
                let wg = crate::boids::WORKGROUP_SIZE;
                push(
                    format!("{}, WG {wg}", entries.join(" and ")),
                    crate::boids::source(),
                );
            }
            "splat" => {
                // The override WG and the scene are not in the text: one set per packing, each
                // module once with the entry points compiled from it.
                let sources = crate::splat::SplatSources::default();
                for packing in [crate::splat::Packing::TwoU32, crate::splat::Packing::Int64] {
                    let mut modules: Vec<(Vec<&str>, Source)> = Vec::new();
                    for (entry, source) in sources.compute(packing) {
                        match modules.iter_mut().find(|m| m.1.path() == source.path()) {
                            Some(module) => module.0.push(entry),
                            None => modules.push((vec![entry], source)),
                        }
                    }
                    for (entries, source) in modules {
                        push(
                            format!("{packing:?}, compute {}", entries.join(", ")),
                            source,
                        );
                    }
                }
                push("render module (vertex, fragment)".into(), sources.raster());
            }
            file => {
                let source = file_source(file).ok_or_else(|| format!("no source for {file}"))?;
                push("the file as written".into(), source);
            }
        }
    }
    Ok(out)
}

/// The profiles to compose for: the one named (as it is), or all four, each with and without
/// subgroups where `every`.
fn profiles(named: Option<&str>, every: bool) -> Vec<(String, DeviceProfile)> {
    let names: Vec<&str> = match named {
        Some(n) => vec![n],
        None if every => PROFILE_NAMES.to_vec(),
        None => vec!["lavapipe"],
    };
    let mut out = Vec::new();
    for name in names {
        let Some(profile) = DeviceProfile::named(name) else {
            continue;
        };
        if every && named.is_none() {
            let mut toggled = profile.clone();
            toggled.subgroups = !toggled.subgroups;
            let with = if toggled.subgroups { "with" } else { "without" };
            out.push((format!("{name} {with} subgroups"), toggled));
        }
        out.push((name.to_string(), profile));
    }
    out
}

/// The scan variants of value type `key` (its WGSL name) and `op` on `profile`.
fn scan_variants(key: &str, op: Op, profile: &DeviceProfile) -> Result<Vec<(String, Source)>> {
    match key {
        "u32" => scan_of::<u32>(op, profile),
        "i32" => scan_of::<i32>(op, profile),
        "f32" => scan_of::<f32>(op, profile),
        "vec2<u32>" => scan_of::<UVec2>(op, profile),
        "vec4<u32>" => scan_of::<UVec4>(op, profile),
        "vec2<i32>" => scan_of::<IVec2>(op, profile),
        "vec4<i32>" => scan_of::<IVec4>(op, profile),
        "vec2<f32>" => scan_of::<Vec2>(op, profile),
        _ => scan_of::<Vec4>(op, profile),
    }
}

/// `scan.wgsl` for `T` and `op` in the tiling planned on `profile`: the tile kernels (storing
/// element by element, and in whole vec4s where scalars can) and, where the tiling is of one
/// subgroup, the work-group scan, which keeps shared-memory tiles.
fn scan_of<T: Value>(op: Op, profile: &DeviceProfile) -> Result<Vec<(String, Source)>> {
    let tiling = Tiling::plan_value::<T>(profile);
    let wide = T::SHAPE == Shape::Scalar && tiling.per_invocation.is_multiple_of(4);
    let entries: &[&str] = match tiling.one_subgroup {
        true => &["scan_tiles", "scan_workgroup"],
        false => &["scan_tiles"],
    };
    let mut out = Vec::new();
    for &entry in entries {
        for wide_store in [false, true] {
            if wide_store && (!wide || entry == "scan_workgroup") {
                continue;
            }
            let source = scan_source::<T>(
                op.into(),
                entry,
                (tiling, profile.subgroups),
                wide_store,
                None,
            )?;
            let store = if wide_store { ", stores in vec4s" } else { "" };
            out.push((format!("{tiling:?}, {entry}{store}"), source));
        }
    }
    Ok(out)
}

/// The source of a family that compiles its file as written.
fn file_source(family: &str) -> Option<Source> {
    Some(match family {
        "invert" => shoal::wgsl!("../wgsl/invert.wgsl"),
        "texture_add" => shoal::wgsl!("../wgsl/texture_add.wgsl"),
        "sobel" => shoal::wgsl!("../wgsl/sobel.wgsl"),
        "blur" => shoal::wgsl!("../wgsl/blur.wgsl"),
        "bilateral" => shoal::wgsl!("../wgsl/bilateral.wgsl"),
        "grid" => shoal::wgsl!("../wgsl/grid.wgsl"),
        "raytrace" => shoal::wgsl!("../wgsl/raytrace.wgsl"),
        "particles" => shoal::wgsl!("../wgsl/particles.wgsl"),
        "waves" => shoal::wgsl!("../wgsl/waves.wgsl"),
        "vector_lengths" => shoal::wgsl!("../wgsl/vector_lengths.wgsl"),
        _ => return None,
    })
}
