//! Mutated WGSL: valid kernels with tokens dropped, duplicated or swapped, bindings and groups
//! renumbered, and numbers replaced by huge or odd ones. Reflection (with and without a device)
//! and kernel creation return a kernel or a typed error; they never panic.

use proptest::prelude::*;
use shoal::{Error, Source};

use super::{check, ensure, small_gpu};

/// Valid kernels the mutations start from: plain storage, overrides sizing the work group and a
/// `var<workgroup>` array, a uniform struct, atomics, a storage image, and a snippet import.
const KERNELS: [&str; 6] = [
    "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&a) { out[id.x] = 2.0 * a[id.x]; }
}",
    "override WG: u32 = 64u;
var<workgroup> sh_tile: array<u32, WG>;
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(WG, 1, 1)
fn scan(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3<u32>) {
    sh_tile[i] = data[g.x * WG + i];
    workgroupBarrier();
    if i == 0u { var s = 0u; for (var k = 0u; k < WG; k++) { s += sh_tile[k]; } data[g.x * WG] = s; }
}",
    "struct Params { scale: vec3<f32>, count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(1) @binding(3) var<storage, read_write> points: array<vec4<f32>, 16>;
@compute @workgroup_size(8, 8)
fn scale(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.y * 8u + id.x;
    if i < params.count && i < 16u { points[i] = vec4(points[i].xyz * params.scale, 1.0); }
}",
    "@group(0) @binding(0) var<storage, read_write> bins: array<atomic<u32>, 256>;
@group(0) @binding(1) var<storage, read> values: array<u32>;
@compute @workgroup_size(256)
fn histogram(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&values) { atomicAdd(&bins[values[id.x] & 255u], 1u); }
}",
    "@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(16, 16)
fn invert(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(src);
    if id.x < size.x && id.y < size.y {
        let c = textureLoad(src, vec2<i32>(id.xy), 0);
        textureStore(dst, vec2<i32>(id.xy), vec4(1.0 - c.rgb, c.a));
    }
}",
    "#import shoal::append(evens, u32)
@group(0) @binding(0) var<storage, read_write> evens: ShoalAppend_evens;
@compute @workgroup_size(16)
fn keep(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x % 2u == 0u { evens_append(id.x); }
}",
];

/// Numbers that break sizes and indices.
const NUMBERS: [&str; 12] = [
    "0",
    "0u",
    "1",
    "4294967295u",
    "4294967296",
    "2147483648i",
    "-1",
    "65536u",
    "1e39",
    "0x7fffffffu",
    "99999999999999999999",
    "1024u",
];

/// One edit of a token list.
#[derive(Debug, Clone)]
enum Mutation {
    Drop(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Number(usize, usize),
    /// Renumber the n-th `@binding(…)` or `@group(…)` argument.
    Renumber(usize, u32),
}

/// Identifiers, numbers, and single punctuation characters, with whitespace kept as tokens so
/// a mutant reads like its kernel.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let mut token = c.to_string();
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
        if word(c) {
            while let Some(&n) = chars.peek().filter(|&&n| word(n)) {
                token.push(n);
                chars.next();
            }
        }
        out.push(token);
    }
    out
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut t = tokens(text);
    for m in mutations {
        let n = t.len().max(1);
        match *m {
            Mutation::Drop(i) if !t.is_empty() => {
                t.remove(i % n);
            }
            Mutation::Duplicate(i) if !t.is_empty() => {
                let token = t[i % n].clone();
                t.insert(i % n, token);
            }
            Mutation::Swap(i, j) if !t.is_empty() => t.swap(i % n, j % n),
            Mutation::Number(i, k) => {
                let numbers: Vec<usize> = (0..t.len())
                    .filter(|&p| t[p].starts_with(|c: char| c.is_ascii_digit()))
                    .collect();
                if !numbers.is_empty() {
                    t[numbers[i % numbers.len()]] = NUMBERS[k % NUMBERS.len()].to_string();
                }
            }
            Mutation::Renumber(i, value) => {
                let slots: Vec<usize> = (2..t.len())
                    .filter(|&p| t[p - 1] == "(" && (t[p - 2] == "binding" || t[p - 2] == "group"))
                    .collect();
                if !slots.is_empty() {
                    t[slots[i % slots.len()]] = format!("{value}u");
                }
            }
            _ => {}
        }
    }
    t.concat()
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let renumber = prop_oneof![0u32..8, Just(31), Just(1000), Just(u32::MAX)];
    prop_oneof![
        any::<usize>().prop_map(Mutation::Drop),
        any::<usize>().prop_map(Mutation::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::Swap(i, j)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, k)| Mutation::Number(i, k)),
        (any::<usize>(), renumber).prop_map(|(i, v)| Mutation::Renumber(i, v)),
    ]
}

#[test]
fn mutated_wgsl_gives_kernels_or_typed_errors() {
    let gpu = small_gpu();
    let strategy = (0..KERNELS.len(), prop::collection::vec(mutation(), 1..4));
    check("mutated WGSL", strategy, |(kernel, mutations)| {
        let text = mutate(KERNELS[kernel], &mutations);
        let source = Source::new("mutant.wgsl", text.clone());
        // Without a device (`cargo xtask check-wgsl`'s path), then with one.
        let _ = shoal::validate(&source);
        let built = gpu.kernel(source);
        // SHOAL_FUZZ_SHOW=1: what each mutant gave, to see that the mutations reach past the parser.
        if std::env::var_os("SHOAL_FUZZ_SHOW").is_some() {
            let line = built
                .as_ref()
                .map_or_else(|e| e.to_string(), |_| "a kernel".into());
            eprintln!("mutant: {}", line.lines().next().unwrap_or_default());
        }
        match built {
            Ok(_) => Ok(()),
            // A back end's own compiler refusing naga's output (GL's GLSL compiler, for one: naga
            // 30 writes `textureSize(sampler2D, uint)` for `textureDimensions(t, 1u)`) is
            // reported as Error::Wgpu with wgpu's "Internal error"; anything else wgpu refuses
            // is a check Shoal is missing.
            Err(Error::Wgpu { message, .. }) if message.contains("Internal error") => Ok(()),
            Err(Error::Wgpu { context, message }) => ensure(false, || {
                format!("wgpu refused what Shoal passed ({context}): {message}\n{text}")
            }),
            Err(_) => Ok(()),
        }
    });
}

#[test]
fn override_constants_of_any_value_give_kernels_or_typed_errors() {
    let gpu = small_gpu();
    let value = prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(-1.0),
        Just(0.0),
        Just(0.5),
        Just(u32::MAX as f64),
        Just(u32::MAX as f64 + 1.0),
        Just(1e300),
        1.0f64..2048.0,
    ];
    check(
        "override constants",
        (value, prop::bool::ANY),
        |(value, known)| {
            let name = if known { "WG" } else { "NOT_THERE" };
            let built = gpu
                .kernel_builder(Source::new("scan.wgsl", KERNELS[1]))
                .constant(name, value)
                .build();
            let fine = known && value.fract() == 0.0 && (1.0..=256.0).contains(&value);
            match built {
                // naga converts a fractional value as WebGPU does (toward zero); not an error.
                Ok(_) => ensure(
                    !known || value >= 1.0 && value < u32::MAX as f64 + 1.0,
                    || format!("WG = {value} accepted"),
                ),
                Err(Error::Wgpu { context, message }) => ensure(false, || {
                    format!("WG = {value}: wgpu: {context}: {message}")
                }),
                Err(e) => ensure(!fine, || format!("WG = {value} refused: {e}")),
            }
        },
    );
}
