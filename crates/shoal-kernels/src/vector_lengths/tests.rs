use shoal_conformance::gpu_test;

use super::*;

gpu_test! {
    /// The book's 64 vectors, and other counts: the multiset of lengths equals the CPU's,
    /// every length is in [1, 10], and every vector was consumed.
    async fn vector_lengths_equal_the_cpus_as_a_multiset(gpu) {
        let k = VectorLengths::new(&gpu).expect("kernel");
        for n in [64, 1, 0, 1000, 4097] {
            let input = exercise_vectors(n, 64);
            let vectors = gpu.append_buffer_from(&input, n.max(1) as u64).expect("vectors");
            let lengths: AppendBuffer<f32> = gpu.append_buffer(n.max(1) as u64).expect("lengths");
            k.run(VectorLengthsArgs { vectors: &vectors, lengths: &lengths }).expect("run");
            let got = sorted(lengths.read().await.expect("read"));
            assert_eq!(got, sorted(vector_lengths_cpu(&input)), "n = {n}");
            assert!(got.iter().all(|l| (1.0 - 1e-5..=10.0 + 1e-5).contains(l)), "n = {n}");
            assert_eq!(vectors.count().await.expect("count"), 0, "n = {n}: all consumed");
        }
    }

    /// Recorded into a batch the caller submits, the kernel gives the twin's lengths.
    async fn recorded_into_a_batch(gpu) {
        let k = VectorLengths::new(&gpu).expect("kernel");
        let input = exercise_vectors(300, 7);
        let vectors = gpu.append_buffer_from(&input, 300).expect("vectors");
        let lengths: AppendBuffer<f32> = gpu.append_buffer(300).expect("lengths");
        let mut commands = gpu.commands();
        k.record(&mut commands, VectorLengthsArgs { vectors: &vectors, lengths: &lengths }).expect("record");
        commands.submit().expect("submit");
        let got = sorted(lengths.read().await.expect("read"));
        assert_eq!(got, sorted(vector_lengths_cpu(&input)));
    }
}
