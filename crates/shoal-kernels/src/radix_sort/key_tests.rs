//! The sort of every key type in both orders, pairs with values of other widths, argsort and the
//! typed errors, against the CPU twins (a comparison sort by `SortKey::sort_cmp`). Keys are
//! compared by their bits, so NaNs, -0 and +0 must land exactly where `f32::total_cmp` puts them.

use crate::test_support::*;
use crate::{I64, SortKey, SortOrder, U64, argsort_cpu, radix_sort::cpu::gather};

/// Sizes for the key types besides `u32` (which loops over every size in `SIZES`): 0, 1, the
/// neighbours of a software adapter's 8-invocation work group, of lavapipe's tile (8 x 32) and
/// of GL's (8 x 64), several tiles, and two seeded random sizes up to 2^17.
fn key_sizes(seed: u64) -> Vec<u64> {
    // Around one work group, the older tiles, and the software adapters' 8 × 2,048 tiles.
    let mut sizes = vec![
        0, 1, 7, 8, 9, 255, 256, 257, 511, 512, 513, 8192, 8193, 16_383, 16_384, 16_385, 65_537,
    ];
    sizes.extend(random_sizes(seed, 2, 1 << 17));
    sizes
}

/// A key type as the tests build and compare it: from and to its bits.
pub(super) trait TestKey: SortKey {
    fn from_bits(bits: u64) -> Self;
    fn bits(&self) -> u64;
    /// Bit patterns every input gets some of.
    const SPECIALS: &'static [u64];
}

const INT_SPECIALS: &[u64] = &[0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xffff_fffe];
const WIDE_SPECIALS: &[u64] = &[
    0,
    1,
    u64::MAX,
    1 << 63,
    (1 << 63) - 1,
    0xffff_ffff,
    1 << 32,
    0x1_0000_0001,
    0xffff_ffff_0000_0000,
];

impl TestKey for u32 {
    fn from_bits(bits: u64) -> Self {
        bits as u32
    }
    fn bits(&self) -> u64 {
        *self as u64
    }
    const SPECIALS: &'static [u64] = INT_SPECIALS;
}

impl TestKey for i32 {
    fn from_bits(bits: u64) -> Self {
        bits as u32 as i32
    }
    fn bits(&self) -> u64 {
        *self as u32 as u64
    }
    const SPECIALS: &'static [u64] = INT_SPECIALS;
}

impl TestKey for f32 {
    fn from_bits(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
    fn bits(&self) -> u64 {
        self.to_bits() as u64
    }
    // ±0, ±inf, NaNs of both signs (quiet and signalling, several payloads), subnormals, and
    // the smallest normals.
    const SPECIALS: &'static [u64] = &[
        0x0000_0000,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0xff80_0001,
        0x7fc0_1234,
        0xffa0_0000,
        0x7fff_ffff,
        0xffff_ffff,
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x807f_ffff,
        0x0080_0000,
        0x8080_0000,
        0x3f80_0000,
        0xbf80_0000,
    ];
}

impl TestKey for U64 {
    fn from_bits(bits: u64) -> Self {
        U64(bits)
    }
    fn bits(&self) -> u64 {
        self.0
    }
    const SPECIALS: &'static [u64] = WIDE_SPECIALS;
}

impl TestKey for I64 {
    fn from_bits(bits: u64) -> Self {
        I64(bits as i64)
    }
    fn bits(&self) -> u64 {
        self.0 as u64
    }
    const SPECIALS: &'static [u64] = WIDE_SPECIALS;
}

/// `n` keys: a quarter specials, a quarter from a pool of 16 (duplicates), a quarter with one of
/// 4 high words and a random low word (ties in the high word), a quarter random bits.
pub(super) fn keys<K: TestKey>(seed: u64, n: u64) -> Vec<K> {
    let mut rng = Rng::new(seed);
    let pool: Vec<u64> = (0..16).map(|_| rng.next_u64()).collect();
    (0..n)
        .map(|_| {
            let r = rng.next_u64();
            let bits = match r % 4 {
                0 => K::SPECIALS[(r >> 8) as usize % K::SPECIALS.len()],
                1 => pool[(r >> 8) as usize % pool.len()],
                2 => (((r >> 8) % 4) << 32) | rng.next_u32() as u64,
                _ => rng.next_u64(),
            };
            K::from_bits(bits)
        })
        .collect()
}

pub(super) fn bits<K: TestKey>(keys: &[K]) -> Vec<u64> {
    keys.iter().map(K::bits).collect()
}

/// Fails unless equal keys of `sorted` carry increasing `indices` (stability).
fn assert_stable<K: TestKey>(sorted: &[K], indices: &[u32], label: &str) {
    for i in 1..sorted.len() {
        if sorted[i].bits() == sorted[i - 1].bits() {
            assert!(indices[i - 1] < indices[i], "{label}: not stable at {i}");
        }
    }
}

/// The sorts every key type is checked with: the adapter's own, and on a software adapter (whose
/// own is the lane counters' 8-bit sort) the 4-bit sort a GPU takes as well.
pub(super) fn sorts<K: TestKey>(gpu: &Gpu, order: SortOrder) -> Vec<(&'static str, RadixSort<K>)> {
    sorts_with(gpu, order, SortParams::default())
}

/// [`sorts`] built with `params`.
pub(super) fn sorts_with<K: TestKey>(
    gpu: &Gpu,
    order: SortOrder,
    params: SortParams,
) -> Vec<(&'static str, RadixSort<K>)> {
    let mut sorts = vec![(
        "the adapter's sort",
        RadixSort::<K>::new(gpu, params.clone()).expect("sort"),
    )];
    if crate::scan::is_software(gpu) {
        let four =
            RadixSort::<K>::with_tiling(gpu, Tiling::for_gpu(gpu), params).expect("4-bit sort");
        sorts.push(("the 4-bit sort", four));
    }
    for (_, sort) in &mut sorts {
        sort.set_order(order);
    }
    sorts
}

/// Every size of [`key_sizes`]: keys alone; at seven sizes pairs with their indices as values
/// (stability) and the argsort; with every sort of [`sorts`], in both orders.
async fn check_key_type<K: TestKey>(gpu: &Gpu, seed: u64) {
    for (order, (name, sort)) in [SortOrder::Ascending, SortOrder::Descending]
        .into_iter()
        .flat_map(|o| sorts::<K>(gpu, o).into_iter().map(move |s| (o, s)))
    {
        let sizes = key_sizes(seed);
        for (s, &n) in sizes.iter().enumerate() {
            let label = format!("{} {order:?} n = {n}, {name}", std::any::type_name::<K>());
            let keys: Vec<K> = keys(seed + n, n);
            let want = argsort_cpu(&keys, order);
            let kb = gpu.buffer_from(&keys).expect("keys");
            sort.run(SortArgs { keys: &kb }).expect("sort");
            let got = kb.read().await.expect("read");
            assert_eq!(
                first_difference(&bits(&got), &bits(&gather(&keys, &want))),
                None,
                "{label}: keys"
            );
            if ![0, 1, 9, 513, 16_384].contains(&n) && s + 2 < sizes.len() {
                continue;
            }
            // Pairs: values are the input indices, so they must come out as the argsort.
            let kb = gpu.buffer_from(&keys).expect("keys");
            let vb = gpu
                .buffer_from(&(0..n as u32).collect::<Vec<_>>())
                .expect("values");
            sort.run(SortPairsArgs {
                keys: &kb,
                values: &vb,
            })
            .expect("pairs");
            let (got_k, got_v) = (kb.read().await.expect("k"), vb.read().await.expect("v"));
            assert_eq!(
                first_difference(&got_v, &want),
                None,
                "{label}: pair values"
            );
            assert_eq!(
                bits(&got_k),
                bits(&gather(&keys, &want)),
                "{label}: pair keys"
            );
            assert_stable(&got_k, &got_v, &label);
            // Argsort: the keys stay, indices past the keys' count are not touched.
            let ib = gpu
                .buffer_from(&vec![u32::MAX; n as usize + 3])
                .expect("indices");
            let kb = gpu.buffer_from(&keys).expect("keys");
            sort.run(ArgsortArgs {
                keys: &kb,
                indices: &ib,
            })
            .expect("argsort");
            let got_i = ib.read().await.expect("indices");
            assert_eq!(
                first_difference(&got_i[..n as usize], &want),
                None,
                "{label}: argsort"
            );
            assert_eq!(got_i[n as usize..], [u32::MAX; 3], "{label}: past the keys");
            assert_eq!(
                bits(&kb.read().await.expect("keys")),
                bits(&keys),
                "{label}: keys kept"
            );
        }
    }
}

/// The words the GPU sorts (`SortKey::ordered`, which the bit-window twin ranks by) order keys
/// as the comparison the twins sort with, and that comparison is the type's own order (for
/// `f32`, `total_cmp`), on every pair of specials and of seeded random keys.
fn check_ordered_words<K: TestKey>(reference: impl Fn(u64, u64) -> std::cmp::Ordering) {
    let mut all: Vec<K> = K::SPECIALS.iter().map(|&b| K::from_bits(b)).collect();
    all.extend(keys::<K>(5, 64));
    for a in &all {
        for b in &all {
            let want = reference(a.bits(), b.bits());
            assert_eq!(a.sort_cmp(b), want, "{a:?} against {b:?}: sort_cmp");
            assert_eq!(
                a.ordered().cmp(&b.ordered()),
                want,
                "{a:?} against {b:?}: ordered"
            );
        }
    }
}

#[test]
fn ordered_words_sort_as_the_keys_do() {
    check_ordered_words::<u32>(|a, b| a.cmp(&b));
    check_ordered_words::<i32>(|a, b| (a as u32 as i32).cmp(&(b as u32 as i32)));
    check_ordered_words::<U64>(|a, b| a.cmp(&b));
    check_ordered_words::<I64>(|a, b| (a as i64).cmp(&(b as i64)));
    // IEEE 754 totalOrder written out: by sign (negatives first), then by magnitude bits,
    // reversed for negatives; NaNs sit past the infinities on their sign's side.
    check_ordered_words::<f32>(|a, b| {
        let key = |bits: u64| {
            let bits = bits as u32;
            let magnitude = (bits & 0x7fff_ffff) as i64;
            if bits >> 31 == 1 {
                -magnitude - 1
            } else {
                magnitude
            }
        };
        key(a).cmp(&key(b))
    });
}

/// Keys with heavy duplicates carrying values of `V` built from their index by `value`: the
/// values come out in the argsort's order, in both orders, with every sort of [`sorts`].
async fn check_wide_values<K: TestKey, V: shoal::Element + Clone + PartialEq + std::fmt::Debug>(
    gpu: &Gpu,
    n: u64,
    value: impl Fn(u32) -> V,
) {
    for (order, (name, sort)) in [SortOrder::Ascending, SortOrder::Descending]
        .into_iter()
        .flat_map(|o| sorts::<K>(gpu, o).into_iter().map(move |s| (o, s)))
    {
        let keys: Vec<K> = random_u32(n, n, 7)
            .into_iter()
            .map(|x| K::from_bits(K::SPECIALS[x as usize % K::SPECIALS.len()]))
            .collect();
        let values: Vec<V> = (0..n as u32).map(&value).collect();
        let want = argsort_cpu(&keys, order);
        let (kb, vb) = (
            gpu.buffer_from(&keys).expect("k"),
            gpu.buffer_from(&values).expect("v"),
        );
        sort.run(SortPairsArgs {
            keys: &kb,
            values: &vb,
        })
        .expect("pairs");
        let label = format!(
            "{} {order:?} n = {n}, {name}",
            std::any::type_name::<(K, V)>()
        );
        let got_k = kb.read().await.expect("k");
        assert_eq!(bits(&got_k), bits(&gather(&keys, &want)), "{label}: keys");
        let got_v = vb.read().await.expect("v");
        assert_eq!(
            first_difference(&got_v, &gather(&values, &want)),
            None,
            "{label}: values"
        );
    }
}

/// 4,099 `[index, high, low, 5]` elements sorted by `sort` by the 64-bit key of their words 1
/// and 2 (a key function): the keys, and the indices in the order the sort left the elements.
pub(super) async fn sort_by_words(gpu: &Gpu, sort: &RadixSort<U64>) -> (Vec<U64>, Vec<u32>) {
    let by_words = sort
        .key_function::<[u32; 4]>(
            "alias Element = array<u32, 4>;\nfn sort_key(e: Element) -> vec2<u32> { return vec2<u32>(e[2], e[1]); }",
        )
        .expect("key function");
    let wide: Vec<U64> = keys(77, 4_099);
    let elements: Vec<[u32; 4]> = wide
        .iter()
        .enumerate()
        .map(|(i, k)| [i as u32, (k.0 >> 32) as u32, k.0 as u32, 5])
        .collect();
    let eb = gpu.buffer_from(&elements).expect("elements");
    sort.run(SortByArgs {
        elements: &eb,
        key: &by_words,
    })
    .expect("sort by");
    let got = eb
        .read()
        .await
        .expect("read")
        .iter()
        .map(|e| e[0])
        .collect();
    (wide, got)
}

/// A 2-byte value: not a whole number of u32 words.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Half(u16);
shoal::pod_element!(Half);

/// An element with its key inside: sorted by `pos.z`, found again by `id`.
#[derive(encase::ShaderType, Clone, Copy, Debug, PartialEq)]
struct Particle {
    pos: shoal::glam::Vec3,
    id: u32,
}

const PARTICLE: &str = "struct Particle { pos: vec3<f32>, id: u32 }
alias Element = Particle;
fn sort_key(e: Element) -> f32 { return e.pos.z; }";

shoal_conformance::gpu_test! {
    /// u32 keys largest first (ascending: `sort_keys_every_size`).
    async fn sort_u32_descending(gpu) {
        check_key_type::<u32>(&gpu, 100).await;
    }

    /// i32 keys, both orders: keys, pairs (stability) and argsort.
    async fn sort_i32_keys(gpu) {
        check_key_type::<i32>(&gpu, 200).await;
    }

    /// f32 keys by total order (NaNs, ±0, ±inf, subnormals), bit for bit.
    async fn sort_f32_keys(gpu) {
        check_key_type::<f32>(&gpu, 300).await;
    }

    /// u64 keys (two words).
    async fn sort_u64_keys(gpu) {
        check_key_type::<U64>(&gpu, 400).await;
    }

    /// i64 keys (two words, the high one signed).
    async fn sort_i64_keys(gpu) {
        check_key_type::<I64>(&gpu, 500).await;
    }

    /// 16-byte values (gathered by the permutation), 32-, 64- and 80-byte values (two, four and
    /// five vec4s each), 8-byte values, values of 40,001 words (one word at a time, past the 65,535 loop trips
    /// llvmpipe allows an invocation if an invocation gathered whole values), and 4-byte values
    /// of another type, with 32- and 64-bit keys.
    async fn sort_pairs_of_wide_values(gpu) {
        check_wide_values::<u32, [u32; 4]>(&gpu, 70_001, |i| [i, !i, i * 3, 7]).await;
        check_wide_values::<u32, [u32; 8]>(&gpu, 1_025, |i| std::array::from_fn(|j| i * 8 + j as u32)).await;
        check_wide_values::<u32, [u32; 16]>(&gpu, 16_385, |i| std::array::from_fn(|j| i ^ (j as u32) << 20)).await;
        check_wide_values::<i32, [u32; 20]>(&gpu, 2_049, |i| std::array::from_fn(|j| i + j as u32)).await;
        check_wide_values::<u32, Box<[u32; 40_001]>>(&gpu, 9, |i| Box::new(std::array::from_fn(|j| i ^ (j as u32) << 4))).await;
        check_wide_values::<f32, shoal::glam::Vec4>(&gpu, 4_099, |i| shoal::glam::Vec4::splat(i as f32)).await;
        check_wide_values::<I64, [u32; 2]>(&gpu, 4_099, |i| [i, i ^ 0xffff]).await;
        check_wide_values::<U64, f32>(&gpu, 513, |i| i as f32 * 0.5).await;
        check_wide_values::<i32, i32>(&gpu, 9, |i| -(i as i32)).await;
    }

    /// Typed errors, nothing submitted: lengths, the keys' own buffer, a short argsort output, a
    /// value type that is not whole words.
    async fn sort_errors(gpu) {
        let sort = RadixSort::<f32>::new(&gpu, SortParams::default()).expect("sort");
        let keys = gpu.buffer_zeroed::<f32>(10).expect("keys");
        let short = gpu.buffer_zeroed::<u32>(9).expect("short");
        assert!(matches!(sort.run(SortPairsArgs { keys: &keys, values: &short }), Err(shoal::Error::Length { .. })));
        assert!(matches!(sort.run(ArgsortArgs { keys: &keys, indices: &short }), Err(shoal::Error::Length { .. })));
        let same = keys.view_as::<u32>();
        assert!(matches!(sort.run(SortPairsArgs { keys: &keys, values: &same }), Err(shoal::Error::BindingKind { .. })));
        assert!(matches!(sort.run(ArgsortArgs { keys: &keys, indices: &same }), Err(shoal::Error::BindingKind { .. })));
        let halves = gpu.buffer_zeroed::<Half>(10).expect("halves");
        assert!(matches!(sort.run(SortPairsArgs { keys: &keys, values: &halves }), Err(shoal::Error::InvalidParameter { .. })));
        // Nothing was sorted, nothing broke: the sort still runs.
        let keys = gpu.buffer_from(&[2.0f32, -1.0]).expect("keys");
        sort.run(SortArgs { keys: &keys }).expect("sort");
        assert_eq!(keys.read().await.expect("read"), [-1.0, 2.0]);
    }

    /// Elements sorted by a key their WGSL computes: particles by an f32 (with NaNs and ±0),
    /// both orders, and 16-byte arrays by a 64-bit key of two of their words.
    async fn sort_by_key_function(gpu) {
        for order in [SortOrder::Ascending, SortOrder::Descending] {
            let mut sort = RadixSort::<f32>::new(&gpu, SortParams::default()).expect("sort");
            sort.set_order(order);
            let by_z = sort.key_function::<Particle>(PARTICLE).expect("key function");
            for n in [0u64, 1, 9, 513, 70_001] {
                let z: Vec<f32> = keys(n + 9, n);
                let particles: Vec<Particle> = z.iter().enumerate().map(|(i, &z)| Particle {
                    pos: shoal::glam::vec3(i as f32, 1.0, z),
                    id: i as u32,
                }).collect();
                let pb = gpu.buffer_from(&particles).expect("particles");
                sort.run(SortByArgs { elements: &pb, key: &by_z }).expect("sort by");
                let want = argsort_cpu(&z, order);
                let got: Vec<u32> = pb.read().await.expect("read").iter().map(|p| p.id).collect();
                assert_eq!(first_difference(&got, &want), None, "{order:?} n = {n}");
            }
        }
        let sort = RadixSort::<U64>::new(&gpu, SortParams::default()).expect("sort");
        let (wide, got) = sort_by_words(&gpu, &sort).await;
        let want = argsort_cpu(&wide, SortOrder::Ascending);
        assert_eq!(first_difference(&got, &want), None, "u64 key of [u32; 4]");
        // A WGSL mistake names the line; a buffer of another layout than `Element` is refused.
        assert!(matches!(sort.key_function::<[u32; 4]>("fn sort_key(e: Element) -> vec2<u32> { return e; }"), Err(shoal::Error::Wgsl { .. })));
        let sort = RadixSort::<f32>::new(&gpu, SortParams::default()).expect("sort");
        let by_z = sort.key_function::<[u32; 3]>(PARTICLE).expect("key function");
        let wrong = gpu.buffer_zeroed::<[u32; 3]>(10).expect("buffer");
        assert!(matches!(sort.run(SortByArgs { elements: &wrong, key: &by_z }), Err(shoal::Error::ElementLayout { .. })), "{:?}", sort.run(SortByArgs { elements: &wrong, key: &by_z }));
    }

    /// A key function must return exactly the sort's key type: an `f32` key for `u32` keys, an
    /// `i32` one for `f32` keys, a `vec4<u32>` or `u32` one for 64-bit keys are WGSL errors
    /// naming the type wanted (not sorts by raw bits or by `.xy`); the right types still sort.
    async fn key_function_of_another_type(gpu) {
        let wrong = |ty: &str| format!("alias Element = u32;\nfn sort_key(e: Element) -> {ty} {{ return {ty}(e); }}");
        let refused = |e: shoal::Error, want: &str| {
            assert!(matches!(&e, shoal::Error::Wgsl { .. }), "{e}");
            assert!(e.to_string().contains(&format!("must return the sort's key type, `{want}`")), "{e}");
        };
        refused(RadixSort::<u32>::new(&gpu, SortParams::default()).expect("sort").key_function::<u32>(&wrong("f32")).expect_err("f32 key of u32"), "u32");
        refused(RadixSort::<u32>::new(&gpu, SortParams::default()).expect("sort").key_function::<u32>("alias Element = f32;\nfn sort_key(e: Element) -> f32 { return e; }").expect_err("f32 key of u32"), "u32");
        refused(RadixSort::<f32>::new(&gpu, SortParams::default()).expect("sort").key_function::<u32>(&wrong("i32")).expect_err("i32 key of f32"), "f32");
        refused(RadixSort::<i32>::new(&gpu, SortParams::default()).expect("sort").key_function::<u32>(&wrong("u32")).expect_err("u32 key of i32"), "i32");
        refused(RadixSort::<U64>::new(&gpu, SortParams::default()).expect("sort").key_function::<u32>(&wrong("vec4<u32>")).expect_err("vec4 key of U64"), "vec2<u32>");
        refused(RadixSort::<I64>::new(&gpu, SortParams::default()).expect("sort").key_function::<u32>(&wrong("u32")).expect_err("u32 key of I64"), "vec2<u32>");
        // The key type itself, spelled either way, sorts.
        let values: Vec<u32> = vec![5, 0xffff_fff0, 3, 7, 0x8000_0000, 3];
        for (ty, key) in [("i32", "i32(e)"), ("i32", "bitcast<i32>(e)")] {
            let sort = RadixSort::<i32>::new(&gpu, SortParams::default()).expect("sort");
            let by = sort.key_function::<u32>(&format!("alias Element = u32;\nfn sort_key(e: Element) -> {ty} {{ return {key}; }}")).expect("i32 key");
            let b = gpu.buffer_from(&values).expect("values");
            sort.run(SortByArgs { elements: &b, key: &by }).expect("sort by");
            let mut want = values.clone();
            want.sort_by_key(|&v| v as i32);
            assert_eq!(b.read().await.expect("read"), want, "{key}");
        }
        let sort = RadixSort::<U64>::new(&gpu, SortParams::default()).expect("sort");
        let by = sort.key_function::<u32>("alias Element = u32;\nfn sort_key(e: Element) -> vec2u { return vec2u(0u, e); }").expect("vec2u key");
        let b = gpu.buffer_from(&values).expect("values");
        sort.run(SortByArgs { elements: &b, key: &by }).expect("sort by");
        let mut want = values.clone();
        want.sort_unstable();
        assert_eq!(b.read().await.expect("read"), want, "vec2u");
    }
}
