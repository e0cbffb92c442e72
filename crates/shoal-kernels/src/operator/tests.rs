//! Scans and reductions with user operators that are not commutative, on a scalar, a vector and a
//! struct, against CPU twins folding in element order; the errors of operators and struct values.

use shoal::glam::UVec2;

use crate::test_support::*;
use crate::{Operator, Shape, Value, scan_by};

/// Sizes across one and several tiles of every tiling, with ragged ends.
const OP_SIZES: &[u64] = &[
    0, 1, 7, 8, 9, 511, 512, 513, 8191, 8192, 8193, 65_537, 200_003,
];

/// The last non-zero value so far: a scalar operator that is associative and not commutative.
const FORWARD_FILL: Operator = Operator::new(
    "forward fill",
    "fn identity() -> T { return 0u; }
fn combine(a: T, b: T) -> T { return select(a, b, b != 0u); }",
);

fn forward_fill(a: u32, b: u32) -> u32 {
    if b != 0 { b } else { a }
}

/// Affine maps x -> a x + b (mod 2^32) as (a, b); `combine(f, g)` applies f, then g.
const AFFINE: Operator = Operator::new(
    "affine",
    "fn identity() -> T { return vec2<u32>(1u, 0u); }
fn combine(f: T, g: T) -> T { return vec2<u32>(g.x * f.x, g.x * f.y + g.y); }",
);

fn affine(f: UVec2, g: UVec2) -> UVec2 {
    UVec2::new(
        g.x.wrapping_mul(f.x),
        g.x.wrapping_mul(f.y).wrapping_add(g.y),
    )
}

/// A value and where it was: the struct of the (min, argmin) operator.
#[derive(Clone, Copy, Debug, PartialEq, encase::ShaderType)]
struct MinIndex {
    value: f32,
    index: u32,
}

impl Value for MinIndex {
    const WGSL: &'static str = "MinIndex";
    const SHAPE: Shape = Shape::Struct;
    type Wide = Self;
}

/// A struct declared in WGSL with fewer fields than in Rust.
#[derive(Clone, Copy, Debug, PartialEq, encase::ShaderType)]
struct Mislaid {
    a: u32,
    b: u32,
}

impl Value for Mislaid {
    const WGSL: &'static str = "Mislaid";
    const SHAPE: Shape = Shape::Struct;
    type Wide = Self;
}

/// The smallest value and its first index: ties keep the earlier element.
const ARGMIN: Operator = Operator::new(
    "argmin",
    "struct MinIndex { value: f32, index: u32 }
fn identity() -> T { return MinIndex(1e30, 4294967295u); }
fn combine(a: T, b: T) -> T {
    if b.value < a.value { return b; }
    return a;
}",
);

fn argmin(a: MinIndex, b: MinIndex) -> MinIndex {
    if b.value < a.value { b } else { a }
}

/// Scans `data` with `op` (inclusive and exclusive, each strategy) and reduces it, against
/// `identity` and `f` folding in element order.
#[allow(clippy::too_many_arguments)]
async fn check<T: Value + PartialEq>(
    gpu: &Gpu,
    (scan, reduce): (&Scan<T>, &Reduce<T>),
    op: Operator,
    data: &[T],
    identity: T,
    f: impl Fn(T, T) -> T + Copy,
    strategies: &[Strategy],
) {
    let n = data.len() as u64;
    let input = gpu.buffer_from(data).expect("input");
    let output = gpu.buffer_zeroed::<T>(n.max(1)).expect("output");
    for &strategy in strategies {
        for inclusive in [true, false] {
            let spec = if inclusive {
                ScanSpec::inclusive(op)
            } else {
                ScanSpec::exclusive(op)
            };
            scan.run(&input, &output, spec.with_strategy(strategy))
                .expect("scan");
            let got = output.read().await.expect("read");
            let want = scan_by(data, identity, f, inclusive);
            if let Some(d) = first_difference(&got[..data.len()], &want) {
                panic!(
                    "{}, n = {n}, {strategy:?}, inclusive {inclusive}: {d}",
                    op.name()
                );
            }
        }
    }
    let total = reduce.value(&input, op).await.expect("reduce");
    let want = data.iter().fold(identity, |a, &b| f(a, b));
    assert_eq!(total, want, "{} reduced, n = {n}", op.name());
}

const BOTH: &[Strategy] = &[Strategy::MultiLevel, Strategy::LookBack];

shoal_conformance::gpu_test! {
    /// A scalar operator that is not commutative (forward fill), both strategies, and reduce:
    /// the same tiles and subgroup paths as the built-in sum.
    async fn operator_on_u32_scans_and_reduces_in_order(gpu) {
        assert_ne!(forward_fill(3, 5), forward_fill(5, 3), "not commutative");
        let (scan, reduce) = (Scan::<u32>::new(&gpu).expect("scan"), Reduce::<u32>::new(&gpu).expect("reduce"));
        for &n in OP_SIZES {
            let data: Vec<u32> = random_u32(n + 5, n, 0).into_iter().map(|x| if x % 5 == 0 { x | 1 } else { 0 }).collect();
            check(&gpu, (&scan, &reduce), FORWARD_FILL, &data, 0, forward_fill, BOTH).await;
        }
        // Forced shared-memory tiles of 8 invocations, where the adapter plans one-subgroup tiles.
        let shared = Tiling { per_invocation: 4, one_subgroup: false, workgroup: Some(8) };
        let (scan, reduce) = (Scan::<u32>::with_tiling(&gpu, shared).expect("scan"), Reduce::<u32>::with_tiling(&gpu, shared).expect("reduce"));
        let data: Vec<u32> = random_u32(3, 20_000, 0).into_iter().map(|x| if x % 7 == 0 { x | 1 } else { 0 }).collect();
        check(&gpu, (&scan, &reduce), FORWARD_FILL, &data, 0, forward_fill, BOTH).await;
    }

    /// Affine maps on `vec2<u32>`: composition is not commutative (asserted on the data), the
    /// look-back carries each value as two words; and the built-in sum of vectors.
    async fn operator_on_vectors_composes_affine_maps(gpu) {
        let (scan, reduce) = (Scan::<UVec2>::new(&gpu).expect("scan"), Reduce::<UVec2>::new(&gpu).expect("reduce"));
        for &n in OP_SIZES {
            let words = random_u32(n + 9, 2 * n, 0);
            let data: Vec<UVec2> = words.chunks(2).map(|w| UVec2::new(w[0] | 1, w[1])).collect();
            if let [f, g, ..] = data[..] {
                assert_ne!(affine(f, g), affine(g, f), "n = {n}: the first two maps commute");
            }
            check(&gpu, (&scan, &reduce), AFFINE, &data, UVec2::new(1, 0), affine, BOTH).await;
        }
        let data: Vec<UVec2> = random_u32(1, 2 * 70_001, 0).chunks(2).map(|w| UVec2::new(w[0], w[1])).collect();
        let input = gpu.buffer_from(&data).expect("input");
        let output = gpu.buffer_zeroed::<UVec2>(data.len() as u64).expect("output");
        scan.run(&input, &output, ScanSpec::inclusive(Op::Sum)).expect("scan");
        let want = scan_by(&data, UVec2::ZERO, |a, b| UVec2::new(a.x.wrapping_add(b.x), a.y.wrapping_add(b.y)), true);
        assert_eq!(first_difference(&output.read().await.expect("read"), &want), None, "vec2 sum");
    }

    /// A struct value, (min, argmin) with many ties: shared-memory tiles and the multi-level
    /// scan (the look-back's atomics carry no struct), the first index of the minimum.
    async fn operator_on_a_struct_finds_the_first_minimum(gpu) {
        let (scan, reduce) = (Scan::<MinIndex>::new(&gpu).expect("scan"), Reduce::<MinIndex>::new(&gpu).expect("reduce"));
        for &n in OP_SIZES {
            let data: Vec<MinIndex> = random_u32(n + 11, n, 16)
                .into_iter()
                .enumerate()
                .map(|(i, v)| MinIndex { value: v as f32 - 8.0, index: i as u32 })
                .collect();
            check(&gpu, (&scan, &reduce), ARGMIN, &data, MinIndex { value: 1e30, index: u32::MAX }, argmin, &[Strategy::Auto, Strategy::MultiLevel]).await;
        }
    }

    /// Bad operators and struct values get typed errors: a WGSL error names the operator's line,
    /// a built-in operation on a struct, the look-back or one-subgroup tiles for a struct.
    async fn operator_errors_are_typed(gpu) {
        const BROKEN: Operator = Operator::new("broken", "fn identity() -> T { return 0u; }
fn combine(a: T, b: T) -> T { return a +* b; }");
        let scan = Scan::<u32>::new(&gpu).expect("scan");
        let (input, output) = (gpu.buffer_from(&[1u32, 2, 3]).expect("input"), gpu.buffer_zeroed::<u32>(3).expect("output"));
        match scan.run(&input, &output, ScanSpec::inclusive(BROKEN)) {
            Err(shoal::Error::Wgsl { message, .. }) => assert!(message.contains("operator `broken`:2"), "{message}"),
            other => panic!("a broken operator: {other:?}"),
        }
        // Without `identity` (commented out, or only a helper named like it): the operator and
        // the contract are named, not an identifier inside Shoal's scan (a newcomer's audit).
        const NO_IDENTITY: Operator = Operator::new("no identity", "// fn identity() -> T { return 0u; }
fn identity_of(x: T) -> T { return x; }
fn combine(a: T, b: T) -> T { return max(a, b); }");
        match scan.run(&input, &output, ScanSpec::inclusive(NO_IDENTITY)) {
            Err(shoal::Error::Wgsl { message, .. }) => {
                assert!(message.contains("operator `no identity` does not define `fn identity() -> T`"), "{message}");
                assert!(!message.contains("combine(a: T, b: T) -> T` or"), "{message}");
            }
            other => panic!("an operator without identity: {other:?}"),
        }
        let structs = Scan::<MinIndex>::new(&gpu).expect("scan");
        let data = [MinIndex { value: 1.0, index: 0 }; 3];
        let (input, output) = (gpu.buffer_from(&data).expect("input"), gpu.buffer_zeroed::<MinIndex>(3).expect("output"));
        assert!(matches!(structs.run(&input, &output, ScanSpec::inclusive(Op::Sum)), Err(shoal::Error::Wgsl { .. })));
        let forced = ScanSpec::inclusive(ARGMIN).with_strategy(Strategy::LookBack);
        assert!(matches!(structs.run(&input, &output, forced), Err(shoal::Error::Override { .. })));
        let one_subgroup = Tiling { per_invocation: 4, one_subgroup: true, workgroup: None };
        assert!(Scan::<MinIndex>::with_tiling(&gpu, one_subgroup).is_err());
        // A struct whose WGSL (4 bytes) is not its Rust layout (8 bytes): the binding check refuses it.
        const SHORT: Operator = Operator::new("short", "struct Mislaid { a: u32 }
fn identity() -> T { return Mislaid(0u); }
fn combine(a: T, b: T) -> T { return Mislaid(a.a + b.a); }");
        let mislaid = Scan::<Mislaid>::new(&gpu).expect("scan");
        let (input, output) = (gpu.buffer_from(&[Mislaid { a: 1, b: 2 }; 4]).expect("input"), gpu.buffer_zeroed::<Mislaid>(4).expect("output"));
        let err = mislaid.run(&input, &output, ScanSpec::inclusive(SHORT)).expect_err("layouts differ");
        assert!(err.to_string().contains("input"), "{err}");
    }

    /// `f32` sums that do not depend on scheduling: the multi-level scan and the reduction
    /// combine in a fixed order, so runs give the same bits.
    async fn f32_multilevel_scan_and_reduce_are_reproducible(gpu) {
        let mut rng = Rng::new(77);
        let data: Vec<f32> = (0..300_001).map(|_| rng.range_f32(-1.0, 1.0)).collect();
        let scan = Scan::<f32>::new(&gpu).expect("scan");
        let reduce = Reduce::<f32>::new(&gpu).expect("reduce");
        let input = gpu.buffer_from(&data).expect("input");
        let output = gpu.buffer_zeroed::<f32>(data.len() as u64).expect("output");
        let spec = ScanSpec::inclusive(Op::Sum).with_strategy(Strategy::MultiLevel);
        let mut first: Option<(Vec<u32>, u32)> = None;
        for _ in 0..3 {
            scan.run(&input, &output, spec).expect("scan");
            let bits: Vec<u32> = output.read().await.expect("read").iter().map(|x| x.to_bits()).collect();
            let total = reduce.value(&input, Op::Sum).await.expect("reduce").to_bits();
            match &first {
                None => first = Some((bits, total)),
                Some((b, t)) => {
                    assert_eq!(first_difference(&bits, b), None, "scan bits differ between runs");
                    assert_eq!(total, *t, "reduction bits differ between runs");
                }
            }
        }
    }
}

/// The contract check reads declarations, not comments or names that only start alike.
#[test]
fn the_contract_check_reads_declarations() {
    use super::{defines, without_comments};
    let code = without_comments(
        "/* /* nested */ fn identity() -> T { } */ fn identity_of(x: T) -> T { return x; }
         // fn combine(a: T, b: T) -> T
         fn  combine (a: T, b: T) -> T { return a; } fn sfn identity() {}",
    );
    assert!(!defines(&code, "identity"), "{code}");
    assert!(defines(&code, "combine"), "{code}");
    assert!(defines("fn identity() -> T { return 0u; }", "identity"));
    // Every WGSL line break ends a `//` comment (naga's), not only `\n`.
    let cr = without_comments("// max\rfn identity() -> T { return 0u; }");
    assert!(defines(&cr, "identity"), "{cr}");
}
