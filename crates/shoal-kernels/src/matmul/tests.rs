//! Matrix products of ragged shapes against the CPU twin.

use crate::test_support::*;

shoal_conformance::gpu_test! {
    /// element is bounded by k·ε·Σ|a_ip·b_pj| (sequential f32 accumulation against f64).
    async fn matmul_ragged_shapes(gpu) {
        let mm = Matmul::new(&gpu).expect("matmul");
        let mut rng = Rng::new(5);
        for [m, k, n] in [[1u32, 1, 1], [17, 33, 65], [64, 64, 64], [100, 7, 129], [3, 300, 5], [130, 130, 1]] {
            let a: Vec<f32> = (0..m * k).map(|_| rng.range_f32(-1.0, 1.0)).collect();
            let b: Vec<f32> = (0..k * n).map(|_| rng.range_f32(-1.0, 1.0)).collect();
            let (ab, bb) = (gpu.buffer_from(&a).expect("a"), gpu.buffer_from(&b).expect("b"));
            let c = gpu.buffer_zeroed::<f32>((m * n) as u64).expect("c");
            let want = matmul_cpu(&a, &b, [m as usize, k as usize, n as usize]);
            for kernel in [MatmulKernel::Tiled, MatmulKernel::Naive] {
                mm.run(&ab, &bb, &c, [m, k, n], kernel).expect("run");
                let got = c.read().await.expect("c");
                for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                    let (r, col) = (i / n as usize, i % n as usize);
                    let abs: f64 = (0..k as usize).map(|p| (a[r * k as usize + p] as f64 * b[p * n as usize + col] as f64).abs()).sum();
                    let bound = (k as f64 + 2.0) * f32::EPSILON as f64 * abs;
                    assert!((g as f64 - w as f64).abs() <= bound, "{kernel:?} {m}x{k}x{n} at {i}: {g} vs {w}");
                }
            }
        }
        let a = gpu.buffer_zeroed::<f32>(6).expect("a");
        let c = gpu.buffer_zeroed::<f32>(4).expect("c");
        assert!(matches!(mm.run(&a, &a, &c, [2, 2, 2], MatmulKernel::Tiled), Err(shoal::Error::Length { .. })));
    }
}
