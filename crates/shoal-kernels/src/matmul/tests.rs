//! Matrix products of ragged shapes against the CPU twin, in every kernel shape.

use crate::test_support::*;

/// `c` against the CPU product of `a` and `b`: each element within k·ε·Σ|a_ip·b_pj| (sequential
/// f32 accumulation against f64).
fn assert_product(what: &str, got: &[f32], a: &[f32], b: &[f32], [m, k, n]: [usize; 3]) {
    let want = matmul_cpu(a, b, [m, k, n]);
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
        let (r, col) = (i / n, i % n);
        let abs: f64 = (0..k)
            .map(|p| (a[r * k + p] as f64 * b[p * n + col] as f64).abs())
            .sum();
        let bound = (k as f64 + 2.0) * f32::EPSILON as f64 * abs;
        assert!(
            (g as f64 - w as f64).abs() <= bound,
            "{what} {m}x{k}x{n} at {i}: {g} vs {w}"
        );
    }
}

shoal_conformance::gpu_test! {
    /// Ragged shapes in every tiling against the CPU, each kernel into a fresh C of garbage; an
    /// inner dimension of 0 clears C and no rows do nothing.
    async fn matmul_ragged_shapes(gpu) {
        // The adapter's own shape, the other adapters' one, and an uneven one (4 x 12 outputs
        // per invocation, panels 3 deep), so every shape runs on every adapter.
        let planned = MatmulTiling::for_gpu(&gpu);
        let uneven = MatmulTiling { tile: 4, rows: 4, cols: 12, k_step: 3 };
        let other = if planned == MatmulTiling::SOFTWARE { MatmulTiling::GPU } else { MatmulTiling::SOFTWARE };
        let mut rng = Rng::new(5);
        let cases = [[1u32, 1, 1], [17, 33, 65], [64, 64, 64], [100, 7, 129], [3, 300, 5], [130, 130, 1], [129, 20, 257]];
        let inputs: Vec<_> = cases.iter().map(|&[m, k, n]| {
            let a: Vec<f32> = (0..m * k).map(|_| rng.range_f32(-1.0, 1.0)).collect();
            let b: Vec<f32> = (0..k * n).map(|_| rng.range_f32(-1.0, 1.0)).collect();
            (a, b)
        }).collect();
        for shape in [planned, other, uneven] {
            let mm = Matmul::with_tiling(&gpu, shape).expect("matmul");
            let kernels: &[MatmulKernel] = if shape == planned { &[MatmulKernel::Tiled, MatmulKernel::Naive] } else { &[MatmulKernel::Tiled] };
            for (&[m, k, n], (a, b)) in cases.iter().zip(&inputs) {
                let (ab, bb) = (gpu.buffer_from(a).expect("a"), gpu.buffer_from(b).expect("b"));
                for &kernel in kernels {
                    // A fresh C of garbage per kernel: the naive kernel is not read from the
                    // matrix the tiled one already filled.
                    let c = gpu.buffer_from(&vec![9.0f32; (m * n) as usize]).expect("c");
                    mm.run(MatmulArgs { a: &ab, b: &bb, c: &c, dims: [m, k, n], kernel }).expect("run");
                    let got = c.read().await.expect("c");
                    assert_product(&format!("{kernel:?} {shape:?}"), &got, a, b, [m as usize, k as usize, n as usize]);
                }
            }
        }
        let mm = Matmul::new(&gpu).expect("matmul");
        // k = 0: C is cleared; m = 0: nothing to do.
        let (e, c) = (gpu.buffer_zeroed::<f32>(0).expect("empty"), gpu.buffer_from(&[7.0f32; 6]).expect("c"));
        mm.run(MatmulArgs { a: &e, b: &e, c: &c, dims: [2, 0, 3], kernel: MatmulKernel::Tiled }).expect("k = 0");
        assert_eq!(c.read().await.expect("c"), [0.0; 6]);
        mm.run(MatmulArgs { a: &e, b: &gpu.buffer_zeroed::<f32>(12).expect("b"), c: &e, dims: [0, 4, 3], kernel: MatmulKernel::Tiled }).expect("m = 0");
    }

    /// A, B or C one element too long for a 2 x 3 by 3 x 4 product is `Error::Length` naming
    /// that matrix and its shape, from either kernel, and nothing is written to C.
    async fn matmul_wrong_lengths_are_typed_errors_naming_the_matrix(gpu) {
        let mm = Matmul::new(&gpu).expect("matmul");
        let [m, k, n] = [2u32, 3, 4];
        let buffer = |len: u32| gpu.buffer_from(&vec![9.0f32; len as usize]).expect("buffer");
        let (a, b, c) = (buffer(m * k), buffer(k * n), buffer(m * n));
        let (long_a, long_b, long_c) = (buffer(m * k + 1), buffer(k * n + 1), buffer(m * n + 1));
        for kernel in [MatmulKernel::Tiled, MatmulKernel::Naive] {
            for (name, shape, a, b, c) in [
                ("A", "2 x 3", &long_a, &b, &c),
                ("B", "3 x 4", &a, &long_b, &c),
                ("C", "2 x 4", &a, &b, &long_c),
            ] {
                match mm.run(MatmulArgs { a, b, c, dims: [m, k, n], kernel }) {
                    Err(shoal::Error::Length { what, expected, got }) => {
                        assert!(what.contains(&format!("{name} is {shape}")), "{kernel:?} {name}: {what}");
                        assert_eq!(got, expected + 1, "{kernel:?} {name}");
                    }
                    other => panic!("{kernel:?}: {name} one element too long: expected Error::Length, got {:?}", other.map(|_| ())),
                }
            }
        }
        for (what, c) in [("C", &c), ("the long C", &long_c)] {
            assert!(c.read().await.expect("c").iter().all(|&v| v == 9.0), "{what} was written");
        }
    }

    /// An inner dimension longer than llvmpipe's loop limit (65,535 trips per invocation, every
    /// loop together) allows in one dispatch: the naive kernel stopped at 65,535 columns, the
    /// tiled one at about 26,213 (software shape) or 47,662 (GPU shape), and both returned Ok.
    /// Small integers, so every partial sum is exact in f32 and C must equal the CPU's exactly.
    async fn matmul_inner_dimension_past_the_loop_limit(gpu) {
        let planned = MatmulTiling::for_gpu(&gpu);
        let other = if planned == MatmulTiling::SOFTWARE { MatmulTiling::GPU } else { MatmulTiling::SOFTWARE };
        let [m, n] = [3u32, 5];
        for k in [30_000u32, 70_000] {
            let ones = vec![1.0f32; (m.max(n) * k) as usize];
            // Entries in -2 ..= 2, products in -4 ..= 4: sums stay far below 2^24.
            let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32 - 2.0).collect();
            let b: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32 - 1.0 + (i % 7 == 0) as u32 as f32).collect();
            for (what, a, b) in [("ones", &ones[..(m * k) as usize], &ones[..(k * n) as usize]), ("pattern", &a[..], &b[..])] {
                let want = matmul_cpu(a, b, [m as usize, k as usize, n as usize]);
                let (ga, gb) = (gpu.buffer_from(a).expect("a"), gpu.buffer_from(b).expect("b"));
                for shape in [planned, other] {
                    let mm = Matmul::with_tiling(&gpu, shape).expect("matmul");
                    for kernel in [MatmulKernel::Tiled, MatmulKernel::Naive] {
                        // C starts as garbage: the first chunk must overwrite it.
                        let c = gpu.buffer_from(&vec![9.0f32; (m * n) as usize]).expect("c");
                        mm.run(MatmulArgs { a: &ga, b: &gb, c: &c, dims: [m, k, n], kernel }).expect("run");
                        assert_eq!(c.read().await.expect("c"), want, "{what}, k = {k}, {kernel:?}, {shape:?}");
                    }
                }
            }
        }
    }

    /// A C wider or taller than one dispatch's grid (65,535 work groups across or down): one
    /// row of 280,004 columns and one column of 280,004 rows, in work groups of one invocation
    /// (5 and 70,001 groups across for the naive and tiled kernels), once `TooManyGroups`.
    async fn matmul_wider_and_taller_than_one_grid(gpu) {
        let narrow = MatmulTiling { tile: 1, rows: 4, cols: 4, k_step: 1 };
        let mm = Matmul::with_tiling(&gpu, narrow).expect("matmul");
        let long = 70_001u32 * 4;
        for [m, k, n] in [[1u32, 3, long], [long, 2, 1]] {
            let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 3.0).collect();
            let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 - 2.0).collect();
            let want = matmul_cpu(&a, &b, [m as usize, k as usize, n as usize]);
            let (ga, gb) = (gpu.buffer_from(&a).expect("a"), gpu.buffer_from(&b).expect("b"));
            for kernel in [MatmulKernel::Tiled, MatmulKernel::Naive] {
                let c = gpu.buffer_from(&vec![9.0f32; (m * n) as usize]).expect("c");
                mm.run(MatmulArgs { a: &ga, b: &gb, c: &c, dims: [m, k, n], kernel }).expect("run");
                assert_eq!(c.read().await.expect("c"), want, "{m}x{k}x{n}, {kernel:?}");
            }
        }
    }

    async fn matmul_shapes_outside_the_device_are_typed_errors(gpu) {
        let limits = gpu.limits();
        let too_wide = limits.max_compute_work_group_size[0].min(limits.max_compute_work_group_size[1]) * 2;
        for (why, shape) in [
            ("rows not a multiple of 4", MatmulTiling { rows: 6, ..MatmulTiling::GPU }),
            ("more than 16 columns", MatmulTiling { cols: 20, ..MatmulTiling::GPU }),
            ("no k step", MatmulTiling { k_step: 0, ..MatmulTiling::GPU }),
            ("no invocations", MatmulTiling { tile: 0, ..MatmulTiling::GPU }),
            ("more invocations than the device has", MatmulTiling { tile: too_wide, ..MatmulTiling::GPU }),
            ("more shared memory than the device has", MatmulTiling { tile: 16, rows: 16, cols: 16, k_step: 64 }),
        ] {
            match Matmul::with_tiling(&gpu, shape) {
                Err(shoal::Error::Override { kernel, message }) => {
                    assert!(kernel.contains("matmul.wgsl") && message.contains("matmul tiling"), "{why}: {kernel}: {message}");
                }
                other => panic!("{why}: {other:?}"),
            }
        }
    }
}
