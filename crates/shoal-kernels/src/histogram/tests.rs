//! Histograms against their CPU twin, at every listed size and bin count.

use super::{Counters, MAX_PRIVATE_BINS, PER, PRIVATE_BINS, SOFTWARE_PERS, Tiles};
use crate::test_support::*;

shoal_conformance::gpu_test! {
    /// Histograms: every listed size into 256 bins, every element in one bin, odd bin counts.
    async fn histogram_sizes_and_one_bin(gpu) {
        let hist = Histogram::new(&gpu).expect("histogram");
        let counts = gpu.buffer_zeroed::<u32>(256).expect("counts");
        for &n in SIZES {
            let data = random_u32(n, n, 300);
            let input = gpu.buffer_from(&data).expect("input");
            hist.run(HistogramArgs { input: &input, counts: &counts }).expect("run");
            assert_eq!(counts.read().await.expect("counts"), histogram_cpu(&data, 256), "n = {n}");
        }
        let same = vec![77u32; 1_000_003];
        let input = gpu.buffer_from(&same).expect("input");
        hist.run(HistogramArgs { input: &input, counts: &counts }).expect("run");
        assert_eq!(counts.read().await.expect("counts"), histogram_cpu(&same, 256));
        // And max_bins (1024), whose workgroup counters GL zeroes by the whole work group.
        for bins in [1u64, 7, 1000, hist.max_bins() as u64] {
            let data = random_u32(bins, 100_000, 0).into_iter().map(|x| x % (bins as u32 + 10)).collect::<Vec<_>>();
            let input = gpu.buffer_from(&data).expect("input");
            let counts = gpu.buffer_zeroed::<u32>(bins).expect("counts");
            hist.run(HistogramArgs { input: &input, counts: &counts }).expect("run");
            assert_eq!(counts.read().await.expect("counts"), histogram_cpu(&data, bins as usize), "bins = {bins}");
        }
        // No bins, or more than the device counts: the parameter named, the value and the range.
        let input = gpu.buffer_from(&[1u32]).expect("input");
        for bins in [0, hist.max_bins() as u64 + 1] {
            let counts = gpu.buffer_zeroed::<u32>(bins).expect("counts");
            let e = hist.run(HistogramArgs { input: &input, counts: &counts }).expect_err("bins out of range");
            let range = format!("1 to {} on this device", hist.max_bins());
            assert!(matches!(&e, shoal::Error::InvalidParameter { kernel, parameter, value, rule }
                if kernel == "Histogram" && parameter == "bins (the counts buffer's length)" && *value == bins.to_string() && rule.starts_with(&range)), "{e}");
        }
    }
}

shoal_conformance::gpu_test! {
    /// Every way of tiling and counting, forced on whatever adapter runs the test: a GPU's
    /// (work groups of up to 256 x 16 values, shared atomics), a software adapter's per-invocation
    /// counters (in shared memory, and private) at each fixed count of values per invocation and
    /// chosen by size, and shared atomics in small work groups; tile neighbours, the tail of n %
    /// 4 values, 256 and 7 bins, and 512 where the private array is too small.
    async fn histogram_every_tiling(gpu) {
        let gpu_wg = crate::wgsl::plan_workgroup(&gpu, 256);
        let mut tilings = vec![
            Tiles { wg: gpu_wg, per: Some(PER), counters: Counters::Atomic, contiguous: false },
            Tiles { wg: gpu_wg, per: Some(PER), counters: Counters::Atomic, contiguous: true },
        ];
        for counters in [Counters::Lanes, Counters::Private] {
            for per in SOFTWARE_PERS {
                tilings.push(Tiles { wg: 8, per: Some(per), counters, contiguous: true });
            }
            tilings.push(Tiles { wg: 8, per: None, counters, contiguous: true });
            tilings.push(Tiles { wg: 8, per: None, counters, contiguous: false });
        }
        // Private counters past their array's 256 bins count in shared memory instead.
        tilings.push(Tiles { wg: 2, per: Some(1024), counters: Counters::Private, contiguous: true });
        tilings.push(Tiles { wg: 8, per: Some(4096), counters: Counters::Atomic, contiguous: true });
        for tiles in tilings {
            let hist = Histogram::with_tiles(&gpu, tiles);
            let tile = tiles.wg as u64 * tiles.per.unwrap_or(1024) as u64;
            let bin_counts = if tiles.wg == 2 { [512u64, 256] } else { [256, 7] };
            for bins in bin_counts {
                let counts = gpu.buffer_zeroed::<u32>(bins).expect("counts");
                for n in [0, 3, tile - 1, tile, tile + 1, tile + 6, 3 * tile + 2, 300_001] {
                    let data = random_u32(n + bins, n, 300);
                    let input = gpu.buffer_from(&data).expect("input");
                    hist.run(HistogramArgs { input: &input, counts: &counts }).expect("run");
                    let want = histogram_cpu(&data, bins as usize);
                    assert_eq!(counts.read().await.expect("counts"), want, "{tiles:?}, {bins} bins, n = {n}");
                }
            }
        }
    }
}

/// The private counters' array in `wgsl/histogram_private_bins.wgsl` is as long as
/// `MAX_PRIVATE_BINS`, the most bins the Rust side gives that block.
#[test]
fn private_bins_array_holds_max_private_bins() {
    let declared = format!("var<private> own_bins: array<u32, {MAX_PRIVATE_BINS}>;");
    assert!(
        PRIVATE_BINS.text().contains(&declared),
        "{} lacks `{declared}`",
        PRIVATE_BINS.path()
    );
}
