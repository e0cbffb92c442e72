//! The radix sort (keys, pairs, every tiling) against a stable CPU sort.

use crate::test_support::*;

/// `keys` sorted by `sort` against `sort_unstable`.
async fn check_sort_keys(gpu: &Gpu, sort: &RadixSort, keys: &[u32], label: &str) {
    let kb = gpu.buffer_from(keys).expect("keys");
    sort.run(SortArgs { keys: &kb }).expect("sort");
    let mut want = keys.to_vec();
    want.sort_unstable();
    assert_eq!(
        first_difference(&kb.read().await.expect("keys"), &want),
        None,
        "{label}"
    );
}

async fn check_sort_pairs(gpu: &Gpu, sort: &RadixSort, keys: &[u32], label: &str) {
    let values: Vec<u32> = (0..keys.len() as u32).collect();
    let (kb, vb) = (
        gpu.buffer_from(keys).expect("keys"),
        gpu.buffer_from(&values).expect("values"),
    );
    sort.run(SortPairsArgs {
        keys: &kb,
        values: &vb,
    })
    .expect("sort");
    let (want_k, want_v) = sort_pairs_cpu(keys, &values);
    let got_k = kb.read().await.expect("keys");
    assert_eq!(
        first_difference(&got_k, &want_k),
        None,
        "{label}: n = {} keys",
        keys.len()
    );
    // The values are the original indices: equal keys must keep them ascending (stability).
    assert_eq!(
        first_difference(&vb.read().await.expect("values"), &want_v),
        None,
        "{label}: n = {} values",
        keys.len()
    );
}

/// The sizes around one tile and two of `tiling` (keys per invocation times invocations), where
/// it names its work group.
fn tile_edges(tiling: Tiling) -> Vec<u64> {
    let Some(workgroup) = tiling.workgroup else {
        return Vec::new();
    };
    let tile = tiling.per_invocation as u64 * workgroup as u64;
    [tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1]
        .into_iter()
        .filter(|&n| n > 1)
        .collect()
}

shoal_conformance::gpu_test! {
    /// Radix sort of keys at every listed size, full u32 range.
    async fn sort_keys_every_size(gpu) {
        let sort = RadixSort::new(&gpu, SortParams::default()).expect("sort");
        for &n in SIZES {
            check_sort_keys(&gpu, &sort, &random_u32(n, n, 0), &format!("n = {n}")).await;
        }
    }

    /// u32, and 65,536 pairs (where a published single-pass sort fails on lavapipe).
    async fn sort_pairs_edge_cases(gpu) {
        let sort = RadixSort::new(&gpu, SortParams::default()).expect("sort");
        check_sort_pairs(&gpu, &sort, &random_u32(1, 65_536, 0), "65536 random pairs").await;
        check_sort_pairs(&gpu, &sort, &random_u32(2, 200_003, 50), "duplicates").await;
        check_sort_pairs(&gpu, &sort, &vec![0xdead_beef; 100_000], "all equal").await;
        check_sort_pairs(&gpu, &sort, &(0..70_000u32).rev().map(|x| x * 61_000).collect::<Vec<_>>(), "descending").await;
        let mut extremes = random_u32(3, 10_000, 0);
        for (i, k) in extremes.iter_mut().enumerate() {
            *k = [0, u32::MAX, 1, u32::MAX - 1, 0x8000_0000, *k][i % 6];
        }
        check_sort_pairs(&gpu, &sort, &extremes, "extremes").await;
        for n in random_sizes(11, 3, 150_000) {
            check_sort_pairs(&gpu, &sort, &random_u32(n, n, 0), "random size").await;
        }
        let (k, v) = (gpu.buffer_zeroed::<u32>(10).expect("k"), gpu.buffer_zeroed::<u32>(9).expect("v"));
        assert!(matches!(sort.run(SortPairsArgs { keys: &k, values: &v }), Err(shoal::Error::Length { .. })));
    }

    /// stable across tile edges.
    async fn sort_every_tiling(gpu) {
        let mut tilings = Vec::new();
        for one_subgroup in [false, true] {
            for per in [1, 7] {
                tilings.push(Tiling { per_invocation: per, one_subgroup, workgroup: None });
            }
        }
        // Shared-memory work groups smaller than the 16 digits, and a software adapter's.
        for wg in [1, 4, SOFTWARE_WORKGROUP] {
            tilings.push(Tiling { per_invocation: 64, one_subgroup: false, workgroup: Some(wg) });
        }
        {
            for tiling in tilings {
                let one_subgroup = tiling.one_subgroup;
                let sort = match RadixSort::with_tiling(&gpu, tiling, SortParams::default()) {
                    Ok(s) => s,
                    Err(e) => {
                        assert!(one_subgroup && gpu.subgroup_size().is_none(), "{tiling:?}: {e}");
                        assert!(matches!(e, shoal::Error::MissingFeature { .. }), "{e}");
                        continue;
                    }
                };
                let label = format!("{tiling:?}");
                for n in [0u64, 1, 2, 257, 4099, 65_537].into_iter().chain(tile_edges(tiling)) {
                    check_sort_pairs(&gpu, &sort, &random_u32(n + 3, n, 0), &label).await;
                }
                check_sort_pairs(&gpu, &sort, &random_u32(4, 65_537, 20), &label).await;
            }
        }
        assert!(matches!(RadixSort::<u32>::with_tiling(&gpu, Tiling { per_invocation: 0, one_subgroup: false, workgroup: None }, SortParams::default()), Err(shoal::Error::Override { .. })));
        assert!(matches!(RadixSort::<u32>::with_tiling(&gpu, Tiling { per_invocation: 4, one_subgroup: false, workgroup: Some(12) }, SortParams::default()), Err(shoal::Error::Override { .. })));
    }

    /// The 8-bit sort (what software adapters take) in every shape of tile: one invocation,
    /// two, a software adapter's 8, as many as the device plans, keys per invocation from 4 to
    /// 1,024, tiles cut mid-vec4 at the end, each with its counters shared and private; keys
    /// and stable pairs. And what it cannot take.
    async fn sort_eight_bit_digits(gpu) {
        let mut tilings = vec![SortTiling::SOFTWARE, SortTiling::LLVMPIPE];
        for (per, workgroup) in [(4, Some(1)), (12, None), (1024, Some(2))] {
            let tiling = Tiling { per_invocation: per, one_subgroup: false, workgroup };
            for counters in [SortCounters::Shared, SortCounters::Private] {
                tilings.push(SortTiling { tiling, digit_bits: 8, counters });
            }
        }
        for tiling in tilings {
            let sort = RadixSort::with_tiling(&gpu, tiling, SortParams::default()).expect("sort");
            let label = format!("{tiling:?}");
            for n in [0u64, 1, 2, 3, 5, 257, 4099, 65_537].into_iter().chain(tile_edges(tiling.tiling)) {
                check_sort_pairs(&gpu, &sort, &random_u32(n + 7, n, 0), &label).await;
            }
            check_sort_pairs(&gpu, &sort, &random_u32(8, 65_537, 20), &label).await;
            check_sort_keys(&gpu, &sort, &random_u32(9, 10_007, 0), &label).await;
        }
        let with = |per_invocation, one_subgroup, workgroup, digit_bits| {
            let tiling = Tiling { per_invocation, one_subgroup, workgroup };
            RadixSort::<u32>::with_tiling(&gpu, SortTiling { tiling, digit_bits, counters: SortCounters::Shared }, SortParams::default())
        };
        for (per, one_subgroup, workgroup, bits) in [(0, false, None, 8), (6, false, None, 8), (4, true, None, 8), (4, false, Some(12), 8), (4, false, None, 5), (u32::MAX - 3, false, None, 8), (u32::MAX, false, None, 4)] {
            let e = with(per, one_subgroup, workgroup, bits).expect_err("a tiling the 8-bit sort cannot take");
            assert!(matches!(&e, shoal::Error::Override { kernel, .. } if kernel.ends_with(".wgsl")), "{e}");
        }
        // Private counters are the 8-bit sort's alone.
        let tiling = Tiling { per_invocation: 4, one_subgroup: false, workgroup: None };
        let e = RadixSort::<u32>::with_tiling(&gpu, SortTiling { tiling, digit_bits: 4, counters: SortCounters::Private }, SortParams::default()).expect_err("private counters, 4-bit digits");
        assert!(matches!(&e, shoal::Error::Override { .. }) && e.to_string().contains("privately"), "{e}");
        // More invocations than shared memory holds 256 counters each for.
        let too_many = (gpu.limits().max_compute_shared_memory_size / 1024 + 1).next_power_of_two();
        if too_many <= gpu.max_workgroup_1d(u32::MAX) {
            let e = with(4, false, Some(too_many), 8).expect_err("too many invocations");
            assert!(e.to_string().contains("shared memory"), "{e}");
        }
    }

    /// 4-bit digits take at most 16,384 keys per invocation (llvmpipe ends a kernel's loops
    /// after 65,535 trips in all, and the 4-bit scatter loops twice over its keys): 16,384 sort
    /// 40,000 keys (three tiles of one invocation), 16,385 and the 32,768 that sorted garbage are
    /// refused with the per-invocation check's error, in shared-memory tiles and one-subgroup
    /// ones alike; the 8-bit sort takes 65,536 and sorts 140,001 pairs with them.
    async fn sort_four_bit_keys_per_invocation(gpu) {
        let tiling = |per_invocation, one_subgroup| Tiling { per_invocation, one_subgroup, workgroup: (!one_subgroup).then_some(1) };
        let sort = RadixSort::with_tiling(&gpu, tiling(16_384, false), SortParams::default()).expect("16,384 keys per invocation");
        check_sort_keys(&gpu, &sort, &random_u32(12, 40_000, 0), "16,384 keys per invocation").await;
        for per in [16_385, 32_768] {
            for one_subgroup in [false, true] {
                let e = RadixSort::<u32>::with_tiling(&gpu, tiling(per, one_subgroup), SortParams::default()).expect_err("too many keys per invocation");
                assert!(matches!(&e, shoal::Error::Override { .. }) && e.to_string().contains("between 1 and 16384 with 4-bit digits"), "{e}");
            }
        }
        // The 8-bit sort at the most keys per invocation it takes, sorting three tiles of one
        // invocation (its loops stay within llvmpipe's 65,535 trips: a vec4, or two, per trip).
        for counters in [SortCounters::Shared, SortCounters::Private] {
            let eight = SortTiling { tiling: tiling(65_536, false), digit_bits: 8, counters };
            let sort = RadixSort::with_tiling(&gpu, eight, SortParams::default()).expect("the 8-bit sort takes 65,536 keys per invocation");
            check_sort_pairs(&gpu, &sort, &random_u32(13, 140_001, 0), &format!("{eight:?}")).await;
        }
    }
}
