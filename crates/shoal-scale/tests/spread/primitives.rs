//! Reduce, scan and histogram over 1 to 4 devices, against the CPU.

use shoal_kernels::{Op, Operator, histogram_cpu, reduce_cpu, scan_cpu};
use shoal_scale::ScanKind;

use crate::{group, splits, words};

const SIZES: [u64; 6] = [0, 1, 63, 64, 65, 10_007];

#[test]
fn reduce_matches_the_cpu_for_every_operation_and_split() {
    for devices in 1..=4 {
        let group = group(devices);
        for n in SIZES {
            let data: Vec<i32> = words(n as usize, n)
                .iter()
                .map(|&w| w as i32 >> 8)
                .collect();
            for lens in splits(n, devices) {
                let spread = group.split(&data, &lens).expect("split");
                for op in [Op::Sum, Op::Min, Op::Max] {
                    let got = group.reduce(&spread, op).expect("reduce");
                    assert_eq!(got, reduce_cpu(&data, op), "{op:?} of {n} over {lens:?}");
                }
            }
        }
    }
}

/// The last non-zero value: associative, not commutative, so the parts must combine in order.
const LAST: Operator = Operator::new(
    "last non-zero",
    "fn identity() -> T { return 0u; }
fn combine(a: T, b: T) -> T { return select(a, b, b != 0u); }",
);

#[test]
fn reduce_by_an_operator_combines_the_parts_in_order() {
    for devices in 1..=4 {
        let group = group(devices);
        for n in [0u64, 1, 65, 3001] {
            // Zeros but for a few values: the last non-zero may sit in any part, or none.
            let data: Vec<u32> = words(n as usize, 7 + n)
                .iter()
                .map(|&w| if w % 97 == 0 { w | 1 } else { 0 })
                .collect();
            let want = data.iter().rev().copied().find(|&v| v != 0).unwrap_or(0);
            for lens in splits(n, devices) {
                let spread = group.split(&data, &lens).expect("split");
                assert_eq!(
                    group.reduce(&spread, LAST).expect("reduce"),
                    want,
                    "{lens:?}"
                );
            }
        }
    }
}

#[test]
fn scan_adds_each_parts_carry() {
    for devices in 1..=4 {
        let group = group(devices);
        for n in SIZES {
            let data: Vec<u32> = words(n as usize, 3 * n).iter().map(|w| w % 1000).collect();
            for lens in splits(n, devices) {
                let spread = group.split(&data, &lens).expect("split");
                for op in [Op::Sum, Op::Max] {
                    for (kind, inclusive) in
                        [(ScanKind::Inclusive, true), (ScanKind::Exclusive, false)]
                    {
                        let got = group.scan(&spread, op, kind).expect("scan");
                        assert_eq!(got.lens(), lens);
                        let want = scan_cpu(&data, op, inclusive);
                        assert_eq!(got.read().expect("read"), want, "{op:?} {kind:?} {lens:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn histogram_sums_every_parts_counts() {
    for devices in 1..=4 {
        let group = group(devices);
        for n in SIZES {
            let data: Vec<u32> = words(n as usize, 5 * n).iter().map(|w| w % 300).collect();
            for lens in splits(n, devices) {
                let spread = group.split(&data, &lens).expect("split");
                for bins in [1u32, 16, 256] {
                    let got = group.histogram(&spread, bins).expect("histogram");
                    assert_eq!(
                        got,
                        histogram_cpu(&data, bins as usize),
                        "{bins} bins {lens:?}"
                    );
                }
            }
        }
    }
}
