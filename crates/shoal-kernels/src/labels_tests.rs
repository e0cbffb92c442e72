//! Every family labels its dispatches in a profile `family: operation` (the operation being the
//! kernel's entry point, or the inner family's label and its entry): reduce-by-key and
//! compaction both run the scan's kernels, and the profile tells them apart.

use crate::test_support::*;
use crate::{Compact, CompactCount, Keep, Segmented, reduce_by_key_cpu};

shoal_conformance::gpu_test! {
    async fn reduce_by_key_and_compaction_label_their_scans_apart(gpu) {
        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let compact = Compact::new(&gpu).expect("compact");
        let keep = compact.predicate("x % 3u == 0u").expect("predicate");
        for n in [1u64, 64, 65, 1000, 5000] {
            let keys: Vec<u32> = (0..n as u32).map(|i| i / 7).collect();
            let values = random_u32(5, n, 100);
            let (k, v) = (gpu.buffer_from(&keys).expect("keys"), gpu.buffer_from(&values).expect("values"));
            let (unique, reduced) = (gpu.buffer_zeroed::<u32>(n).expect("unique"), gpu.buffer_zeroed::<u32>(n).expect("reduced"));
            let (count, kept_count) = (CompactCount::new(&gpu).expect("count"), CompactCount::new(&gpu).expect("count"));
            let kept = gpu.buffer_zeroed::<u32>(n).expect("kept");
            let mut commands = gpu.commands().profiled();
            seg.record(&mut commands, ReduceByKeyArgs { keys: &k, values: &v, unique_keys: &unique, reduced: &reduced, count: &count, op: Op::Sum }).expect("reduce by key");
            let reduce_by_key = commands_timed(&gpu);
            compact.record(&mut commands, CompactArgs { values: &v, keep: Keep::Predicate(&keep), output: &kept, count: &kept_count, next_workgroup: 0 }).expect("compact");
            let timings = commands.submit().expect("submit").timings().await.expect("timings");
            // The results first: labelling changes nothing they compute.
            let (want_keys, want_sums) = reduce_by_key_cpu(&keys, &values, Op::Sum);
            let runs = count.read().await.expect("count") as usize;
            assert_eq!(runs, want_keys.len(), "{n}");
            assert_eq!(unique.read().await.expect("unique")[..runs], want_keys, "{n}");
            assert_eq!(reduced.read().await.expect("reduced")[..runs], want_sums, "{n}");
            let want_kept: Vec<u32> = values.iter().copied().filter(|x| x % 3 == 0).collect();
            assert_eq!(kept_count.read().await.expect("kept count") as usize, want_kept.len());
            assert_eq!(kept.read().await.expect("kept")[..want_kept.len()], want_kept, "{n}");
            if !reduce_by_key {
                continue;
            }
            let labels: Vec<&str> = timings.iter().map(|t| t.label.as_str()).collect();
            assert!(labels.iter().all(|l| l.starts_with("reduce_by_key: ") || l.starts_with("compact: ")), "{labels:?}");
            assert!(labels.iter().any(|l| l.starts_with("reduce_by_key: scan: ")), "{labels:?}");
            assert!(labels.iter().any(|l| l.starts_with("compact: scan: ")), "{labels:?}");
            assert!(labels.iter().all(|l| !l.contains(".wgsl")), "no WGSL file names: {labels:?}");
        }
    }
}

/// Whether a profile names each dispatch (with timestamps; without, it has one wall-clock entry).
fn commands_timed(gpu: &shoal::Gpu) -> bool {
    gpu.has_timestamps()
}
