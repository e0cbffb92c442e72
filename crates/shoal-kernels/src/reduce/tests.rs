//! Reductions against their CPU twin at every listed size and across levels.

use crate::test_support::*;

shoal_conformance::gpu_test! {
    /// Reductions: every size, sum/min/max of each type.
    async fn reduce_every_size(gpu) {
        let ru = Reduce::<u32>::new(&gpu).expect("u32");
        let ri = Reduce::<i32>::new(&gpu).expect("i32");
        let rf = Reduce::<f32>::new(&gpu).expect("f32");
        let three_levels = Reduce::<u32>::with_tiling(&gpu, Tiling::for_gpu(&gpu).with_per_invocation(2)).expect("small tiles");
        let data = random_u32(3, 600_001, 0);
        let input = gpu.buffer_from(&data).expect("input");
        assert_eq!(three_levels.value(&input, Op::Sum).await.expect("3 levels"), reduce_cpu(&data, Op::Sum));
        for &n in SIZES {
            let data = random_u32(n + 5, n, 0);
            let input = gpu.buffer_from(&data).expect("input");
            for op in [Op::Sum, Op::Min, Op::Max] {
                assert_eq!(ru.value(&input, op).await.expect("u32"), reduce_cpu(&data, op), "u32 {op:?} n = {n}");
            }
            if n > 70_000 {
                continue;
            }
            let ints: Vec<i32> = data.iter().map(|&x| x as i32).collect();
            let input = gpu.buffer_from(&ints).expect("ints");
            for op in [Op::Sum, Op::Min, Op::Max] {
                assert_eq!(ri.value(&input, op).await.expect("i32"), reduce_cpu(&ints, op), "i32 {op:?} n = {n}");
            }
            let floats: Vec<f32> = data.iter().map(|&x| x as f32 / u32::MAX as f32 - 0.5).collect();
            let input = gpu.buffer_from(&floats).expect("floats");
            for op in [Op::Min, Op::Max] {
                assert_eq!(rf.value(&input, op).await.expect("f32"), reduce_cpu(&floats, op), "f32 {op:?} n = {n}");
            }
            let exact: f64 = floats.iter().map(|&x| x as f64).sum();
            let abs: f64 = floats.iter().map(|&x| (x as f64).abs()).sum();
            let got = rf.value(&input, Op::Sum).await.expect("f32 sum") as f64;
            let bound = (64.0 + 4.0 * ((n + 1) as f64).log2().ceil()) * f32::EPSILON as f64 * abs;
            assert!((got - exact).abs() <= bound, "f32 sum n = {n}: {got} vs {exact} (bound {bound})");
        }
    }
}
