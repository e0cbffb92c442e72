//! The primitives on part of a buffer (`Buffer::slice`): scan, reduce, histogram and sort (keys,
//! pairs, 64-bit keys) of a slice at the device's binding alignment, each against its CPU twin,
//! and every element outside the slice unchanged.

use crate::test_support::*;
use crate::{U64, sort_cpu};

/// The alignment slices are bound at (`Limits::slice_alignment`), in `u32` elements.
fn aligned(gpu: &Gpu) -> u64 {
    gpu.limits().slice_alignment(false) as u64 / 4
}

/// `before + n + after` random words, and the slice of the middle `n` at the alignment.
fn sliced(gpu: &Gpu, seed: u64, n: u64) -> (Vec<u32>, shoal::Buffer<u32>, shoal::Buffer<u32>) {
    let start = 2 * aligned(gpu);
    let data = random_u32(seed, start + n + 37, 1000);
    let buffer = gpu.buffer_from(&data).expect("buffer");
    let slice = buffer.slice(start..start + n).expect("slice");
    (data, buffer, slice)
}

/// Fails unless `got` is `data` with `middle` in place of elements `start..start + middle.len()`.
fn only_middle(got: &[u32], data: &[u32], start: usize, middle: &[u32], label: &str) {
    let mut want = data.to_vec();
    want[start..start + middle.len()].copy_from_slice(middle);
    assert_eq!(first_difference(got, &want), None, "{label}");
}

shoal_conformance::gpu_test! {
    /// Scan and reduce of a slice into a slice of another buffer; the histogram of a slice.
    async fn scan_reduce_and_histogram_of_a_slice(gpu) {
        let n = 16_385;
        let (data, _buffer, input) = sliced(&gpu, 41, n);
        let start = input.offset() as usize / 4;
        let (out_data, out_buffer, output) = sliced(&gpu, 42, n);
        Scan::<u32>::new(&gpu).expect("scan").run(ScanArgs { input: &input, output: &output, spec: ScanSpec::inclusive(Op::Sum) }).expect("scan");
        let want = scan_cpu(&data[start..start + n as usize], Op::Sum, true);
        only_middle(&out_buffer.read().await.expect("out"), &out_data, start, &want, "scan");
        let (total_data, total_buffer, total) = sliced(&gpu, 43, 1);
        Reduce::<u32>::new(&gpu).expect("reduce").run(ReduceArgs { input: &input, output: &total, op: Op::Max.into() }).expect("reduce");
        let max = reduce_cpu(&data[start..start + n as usize], Op::Max);
        only_middle(&total_buffer.read().await.expect("total"), &total_data, start, &[max], "reduce");
        let bins: Vec<u32> = data[start..start + n as usize].iter().map(|v| v % 256).collect();
        let mut around = random_u32(44, start as u64, 256);
        around.extend(&bins);
        let bins_buffer = gpu.buffer_from(&around).expect("bins");
        let counts = gpu.buffer_zeroed::<u32>(256).expect("counts");
        Histogram::new(&gpu).expect("histogram").run(HistogramArgs { input: &bins_buffer.slice(start as u64..).expect("slice"), counts: &counts }).expect("histogram");
        assert_eq!(counts.read().await.expect("counts"), histogram_cpu(&bins, 256));
    }

    /// Sorting a slice in place: u32 keys, pairs carrying indices, 64-bit keys.
    async fn sort_a_slice(gpu) {
        let n = 16_385;
        let (data, buffer, keys) = sliced(&gpu, 45, n);
        let start = keys.offset() as usize / 4;
        let (values_data, values_buffer, values) = sliced(&gpu, 46, n);
        values.write(&(0..n as u32).collect::<Vec<_>>()).expect("indices");
        RadixSort::new(&gpu, SortParams::default()).expect("sort").run(SortPairsArgs { keys: &keys, values: &values }).expect("pairs");
        let middle = &data[start..start + n as usize];
        let (want_keys, want_values) = sort_pairs_cpu(middle, &(0..n as u32).collect::<Vec<_>>());
        only_middle(&buffer.read().await.expect("keys"), &data, start, &want_keys, "pairs' keys");
        only_middle(&values_buffer.read().await.expect("values"), &values_data, start, &want_values, "pairs' values");
        let wide: Vec<U64> = random_u32(47, 2 * n, 0).chunks(2).map(|w| U64(u64::from(w[0]) | u64::from(w[1]) << 32)).collect();
        let around = gpu.buffer_from(&[vec![U64(1); start / 2], wide.clone(), vec![U64(2); 5]].concat()).expect("wide");
        let slice = around.slice(start as u64 / 2..start as u64 / 2 + n).expect("wide slice");
        RadixSort::<U64>::new(&gpu, SortParams::default()).expect("sort").run(SortArgs { keys: &slice }).expect("u64 sort");
        let got = around.read().await.expect("wide");
        assert_eq!(got[..start / 2], vec![U64(1); start / 2]);
        assert_eq!(first_difference(&got[start / 2..start / 2 + n as usize], &sort_cpu(&wide, crate::SortOrder::Ascending)), None, "u64 keys");
        assert_eq!(got[start / 2 + n as usize..], [U64(2); 5]);
    }
}
