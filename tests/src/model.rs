//! The compute model's semantics and the documents' first programs, on the device of this run.

use crate::COPY;
use crate::gpu_test;
use crate::programs;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

macro_rules! program_tests {
    ($($name:ident),+ $(,)?) => {$(
        gpu_test! {
            async fn $name(gpu) {
                match programs::$name(&gpu).await {
                    Ok(what) => crate::harness::report(&format!("{}: {what}", stringify!($name))),
                    Err(e) => panic!("{}: {e}", stringify!($name)),
                }
            }
        }
    )+};
}

program_tests!(
    builtin_ids,
    shift,
    vecadd,
    multiply,
    vector_lengths,
    indirect,
    folding,
    dependent_chain
);

#[test]
fn vecadd_rows_format_as_the_book_prints() {
    let (a, b) = programs::vecadd_inputs(32);
    let sums: Vec<String> = a
        .iter()
        .zip(&b)
        .map(|(a, b)| {
            programs::vecadd_row(&programs::Data {
                v1: a.v1 + b.v1,
                v2: a.v2 + b.v2,
            })
        })
        .collect();
    assert_eq!(
        sums.join("\n"),
        programs::VECADD_TABLE,
        "the CPU reference reproduces the book's table"
    );
}

gpu_test! {
    async fn limits_meet_the_specification_or_the_report_says_which_do_not(gpu) {
    let limits = gpu.limits();
    let table = limits.to_string();
    crate::harness::report(&format!("{}\n{table}\nfeatures: {:?}", gpu.adapter_details(), gpu.features()));
    for row in limits.rows() {
        assert!(table.contains(row.name), "the table lists {}", row.name);
        let flagged = table.lines().any(|l| l.starts_with(row.name) && l.ends_with("(below minimum)"));
        assert_eq!(flagged, !row.meets_minimum(), "{}: flagged iff below the minimum", row.name);
    }
    // These hold on every wgpu device (WebGPU's own minimums).
    assert!(limits.max_compute_work_group_count.iter().all(|&c| c >= 65535));
    assert!(limits.max_compute_work_group_invocations >= 256);
    assert!(limits.max_compute_shared_memory_size >= 16384);
    }
}

gpu_test! {
    async fn the_device_has_the_adapters_own_limits_not_wgpus_defaults(gpu) {
    if let Some(adapter) = gpu.adapter() {
        let l = adapter.limits();
        assert_eq!(gpu.limits().max_compute_work_group_invocations, l.max_compute_invocations_per_workgroup);
        assert_eq!(gpu.limits().max_compute_shared_memory_size, l.max_compute_workgroup_storage_size);
    }
    }
}

gpu_test! {
    async fn a_zero_count_dispatch_does_nothing_and_succeeds(gpu) {
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl")).expect("kernel");
    let values = gpu.buffer_from(&[5u32, 6, 7]).expect("buffer");
    for groups in [[0, 1, 1], [1, 0, 1], [1, 1, 0]] {
        kernel.bind("values", &values).groups(groups).run().expect("a zero count succeeds");
    }
    kernel.bind("values", &values).invocations(0).run().expect("zero invocations succeed");
    assert_eq!(values.read().await.expect("read"), [5, 6, 7], "nothing ran");
    }
}

gpu_test! {
    /// n = 0 needs no special case: an empty buffer bound to a dispatch of no work group is
    /// fine (WGSL's arrays hold at least one element, but nothing reads them), and nothing is
    /// recorded; every check other than the length still applies.
    async fn a_zero_count_dispatch_with_an_empty_buffer_succeeds(gpu) {
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl")).expect("kernel");
    let empty = gpu.buffer_zeroed::<u32>(0).expect("empty");
    kernel.bind("values", &empty).invocations(0).run().expect("zero invocations");
    for groups in [[0, 1, 1], [1, 0, 1], [1, 1, 0]] {
        kernel.bind("values", &empty).groups(groups).run().expect("zero groups");
    }
    kernel.bind("values", &empty).invocations_2d([0, 5]).run().expect("a zero-wide grid");
    let mut commands = gpu.commands().profiled();
    kernel.bind("values", &empty).invocations(0).record(&mut commands).expect("recorded");
    kernel.bind("values", &empty).groups([0, 1, 1]).record(&mut commands).expect("recorded");
    let timings = commands.submit().expect("submit").timings().await.expect("timings");
    assert!(timings.is_empty(), "nothing recorded: {timings:?}");
    // A dispatch that launches work still needs an element to bind.
    let e = kernel.bind("values", &empty).invocations(1).run().expect_err("one invocation");
    assert!(matches!(e, shoal::Error::BufferTooSmall { .. }), "{e}");

    // Every other check holds at zero.
    let e = kernel.bind("valuez", &empty).invocations(0).run().expect_err("misspelt");
    assert!(matches!(e, shoal::Error::UnknownBinding { .. }), "{e}");
    let e = kernel.dispatch().groups([0, 1, 1]).run().expect_err("unbound");
    assert!(matches!(e, shoal::Error::Unbound { .. }), "{e}");
    let floats = gpu.buffer_zeroed::<f32>(0).expect("empty floats");
    let e = kernel.bind("values", &floats).invocations(0).run().expect_err("f32 for u32");
    assert!(matches!(e, shoal::Error::BindingKind { .. }), "{e}");
    let uniform = gpu.uniform(&0u32).expect("uniform");
    let e = kernel.bind("values", &uniform).invocations(0).run().expect_err("a uniform");
    assert!(matches!(e, shoal::Error::MissingUsage { .. }), "{e}");
    let pair = gpu.kernel(shoal::Source::new("copy.wgsl", COPY)).expect("kernel");
    let e = pair.bind("src", &empty).bind("dst", &empty).invocations(0).run().expect_err("aliased");
    assert!(matches!(e, shoal::Error::Aliasing { .. }), "{e}");
    let other = gpu.buffer_zeroed::<u32>(0).expect("another empty");
    pair.bind("src", &empty).bind("dst", &other).groups([0, 1, 1]).run().expect("two empties");
    }
}

gpu_test! {
    async fn timing_reports_its_source(gpu) {
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl")).expect("kernel");
    let values = gpu.buffer_zeroed::<u32>(1 << 16).expect("buffer");
    let t = kernel.bind("values", &values).invocations(1 << 16).run_timed().await.expect("timed run");
    let expected = if gpu.has_timestamps() { shoal::TimingSource::GpuTimestamp } else { shoal::TimingSource::WallClock };
    assert_eq!(t.source, expected);
    assert!(t.nanos >= 0.0 && t.nanos.is_finite(), "{t}");
    assert!(values.read().await.expect("read").iter().all(|&v| v == 1), "the timed dispatch ran over every element");
    }
}

/// A profiled batch on `gpu` times its copies and clears beside its dispatches where the device
/// writes timestamps between passes, and leaves them out (but runs them, in order) where it does
/// not.
async fn profiled_copies_and_clears(gpu: &shoal::Gpu) {
    let kernel = gpu
        .kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl"))
        .expect("kernel");
    let values = gpu.buffer_zeroed::<u32>(1 << 16).expect("buffer");
    let copy = gpu.buffer_from(&vec![7u32; 1 << 16]).expect("buffer");
    let mut commands = gpu.commands().profiled();
    kernel
        .bind("values", &values)
        .invocations(1 << 16)
        .record(&mut commands)
        .expect("dispatch");
    commands.copy(&values, &copy).expect("copy");
    commands.clear(&values);
    let timings = commands
        .submit()
        .expect("submit")
        .timings()
        .await
        .expect("timings");
    let labels: Vec<&str> = timings.iter().map(|t| t.label.as_str()).collect();
    if gpu.has_timestamps_between_passes() {
        assert_eq!(labels.len(), 3, "{labels:?}");
        assert_eq!(labels[1..], ["copy", "clear"], "{labels:?}");
        assert!(
            timings
                .iter()
                .all(|t| t.source == shoal::TimingSource::GpuTimestamp)
        );
    } else if gpu.has_timestamps() {
        assert_eq!(labels.len(), 1, "only the dispatch is timed: {labels:?}");
        assert_eq!(timings[0].source, shoal::TimingSource::GpuTimestamp);
    } else {
        assert_eq!(timings.len(), 1, "one wall-clock entry: {labels:?}");
        assert_eq!(timings[0].source, shoal::TimingSource::WallClock);
    }
    assert!(
        timings
            .iter()
            .all(|t| t.nanos >= 0.0 && t.nanos.is_finite()),
        "{timings:?}"
    );
    assert_eq!(
        copy.read().await.expect("read"),
        vec![1u32; 1 << 16],
        "the copy ran after the dispatch"
    );
    assert_eq!(
        values.read().await.expect("read"),
        vec![0u32; 1 << 16],
        "the clear ran after the copy"
    );
}

gpu_test! {
    async fn a_profiled_batch_times_copies_and_clears_where_it_can(gpu) {
    profiled_copies_and_clears(&gpu).await;
    }
}

crate::async_test! {
    /// The same on devices asked for without timestamps between passes, and without any.
    async fn a_profiled_batch_without_some_timestamps_still_runs_its_copies() {
    use shoal::wgpu::Features;
    let between = Features::TIMESTAMP_QUERY_INSIDE_ENCODERS | Features::TIMESTAMP_QUERY_INSIDE_PASSES;
    for withheld in [between, between | Features::TIMESTAMP_QUERY] {
        let options = shoal::GpuOptions { withheld_features: withheld, ..Default::default() };
        let gpu = shoal::Gpu::with_options(options).await.expect("device");
        assert!(!gpu.has_timestamps_between_passes(), "{withheld:?}");
        profiled_copies_and_clears(&gpu).await;
    }
    }
}

/// A struct wider than the 4 bytes Shoal gives an empty buffer.
#[derive(shoal::encase::ShaderType, Clone, Copy, Debug, PartialEq)]
struct Wide {
    a: shoal::glam::Vec4,
    b: shoal::glam::Vec3,
}

gpu_test! {
    async fn buffers_write_copy_and_read_ranges(gpu) {
    let a = gpu.buffer_from(&[1u32, 2, 3, 4]).expect("buffer");
    let b = gpu.buffer_zeroed::<u32>(4).expect("buffer");
    b.copy_from(&a).expect("copy");
    b.write_at(1, &[20, 30]).expect("write");
    assert_eq!(b.read().await.expect("read"), [1, 20, 30, 4]);
    assert_eq!(b.read_range(2..4).await.expect("range"), [30, 4]);
    assert_eq!(b.read_range(4..4).await.expect("empty range"), Vec::<u32>::new());
    let empty = gpu.buffer_zeroed::<u32>(0).expect("empty buffer");
    assert!(empty.is_empty());
    assert_eq!(empty.read().await.expect("read empty"), Vec::<u32>::new());
    let from_empty = gpu.buffer_from::<u32>(&[]).expect("a buffer from an empty slice");
    assert!(from_empty.is_empty());
    assert_eq!(from_empty.read().await.expect("read empty"), Vec::<u32>::new());
    // encase lays out an empty slice of a struct as one element; Shoal makes it none.
    for usage in [shoal::Usage::STORAGE, shoal::Usage::VERTEX, shoal::Usage::UNIFORM] {
        let wide = gpu.buffer_from_with::<Wide>(&[], usage).expect("a buffer from no structs");
        assert!(wide.is_empty() && wide.byte_len() == 0, "{usage:?}");
        assert_eq!(wide.read().await.expect("read no structs"), Vec::<Wide>::new());
        wide.write(&[]).expect("writing nothing");
    }
    let appended = gpu.append_buffer_from::<Wide>(&[], 4).expect("an append buffer from no structs");
    assert_eq!(appended.read().await.expect("read no items"), Vec::<Wide>::new());
    }

    /// A `Buffer<u32>` of 10 elements seen as `vec4<u32>`s is 2 of them: a kernel doubling
    /// every vec4 doubles the first 8 elements and leaves the last 2, and the view binds where
    /// the buffer itself (the wrong stride) is refused.
    async fn a_buffer_viewed_as_wider_elements(gpu) {
    let kernel = gpu.kernel(shoal::Source::new("double4.wgsl", "
        @group(0) @binding(0) var<storage, read_write> data: array<vec4<u32>>;
        @compute @workgroup_size(1)
        fn double4(@builtin(global_invocation_id) id: vec3<u32>) {
            if id.x < arrayLength(&data) { data[id.x] *= 2u; }
        }")).expect("kernel");
    let values: Vec<u32> = (1..=10).collect();
    let buffer = gpu.buffer_from(&values).expect("buffer");
    let wide = buffer.view_as::<shoal::glam::UVec4>();
    assert_eq!(wide.len(), 2);
    assert!(matches!(kernel.bind("data", &buffer).groups([2, 1, 1]).run(), Err(shoal::Error::ElementLayout { .. })));
    for _ in 0..2 {
        // The second run finds the bind group the first one made for the same view.
        kernel.bind("data", &buffer.view_as::<shoal::glam::UVec4>()).groups([2, 1, 1]).run().expect("run");
    }
    assert_eq!(buffer.read().await.expect("read"), [4, 8, 12, 16, 20, 24, 28, 32, 9, 10]);
    assert_eq!(wide.read().await.expect("read the view")[1], shoal::glam::UVec4::new(20, 24, 28, 32));
    }
}

gpu_test! {
    /// docs/model.md's `storageBarrier()` row: writes to a storage buffer before the barrier are
    /// seen by the other invocations of the work group after it (the OpenGL compute-shader lesson's shift through a
    /// storage buffer, three work groups of the largest 1D size up to 256).
    async fn storage_barrier_orders_storage_writes_within_a_work_group(gpu) {
    let n = gpu.max_workgroup_1d(256);
    let groups = 3u32;
    let total = (n * groups) as usize;
    let values: Vec<u32> = (0..total as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let input = gpu.buffer_from(&values).expect("values");
    let scratch = gpu.buffer_zeroed::<u32>(total as u64).expect("scratch");
    let shifted = gpu.buffer_zeroed::<u32>(total as u64).expect("shifted");
    let kernel = gpu
        .kernel_builder(shoal::wgsl!("../../wgsl/conformance/storage_barrier.wgsl"))
        .constant("N", n)
        .build()
        .expect("kernel");
    kernel
        .bind("values", &input)
        .bind("scratch", &scratch)
        .bind("shifted", &shifted)
        .groups([groups, 1, 1])
        .run()
        .expect("run");
    let n = n as usize;
    let want: Vec<u32> = (0..total)
        .map(|i| {
            let base = i / n * n;
            values[base + (i - base + n - 1) % n]
        })
        .collect();
    assert_eq!(shifted.read().await.expect("read"), want, "each reads its left neighbour's write");
    }
}

gpu_test! {
    /// WGSL's workgroup memory starts zeroed in every kind of variable (arrays of scalars, of
    /// atomics, of arrays and of structs; a struct holding an atomic; a scalar), in kernels that
    /// name the local index directly, in a struct, or not at all, dispatched after a kernel
    /// that filled the same variables, in one batch and in separate ones.
    async fn workgroup_memory_starts_zeroed_in_every_kind_of_variable(gpu) {
    let wg = gpu.max_workgroup_1d(64);
    let groups = 48u32;
    let source = shoal::wgsl!("../../wgsl/conformance/workgroup_zeroed.wgsl");
    let kernel = |entry: &str| {
        gpu.kernel_builder(source.clone()).entry(entry).constant("WG", wg).build().expect(entry)
    };
    let (dirty, clean, unindexed) = (kernel("dirty"), kernel("clean"), kernel("clean_unindexed"));
    let out = gpu.buffer_zeroed::<u32>(u64::from(groups * wg)).expect("buffer");
    for round in 0..3 {
        let mut commands = gpu.commands();
        dirty.bind("out", &out).groups([groups, 1, 1]).record(&mut commands).expect("dirty");
        commands.submit().expect("submit").wait().await.expect("wait");
        let filled = out.read().await.expect("read");
        assert!(filled.iter().all(|&v| v != 0), "round {round}: `dirty` sees what it wrote");
        for (name, reader) in [("clean", &clean), ("clean_unindexed", &unindexed)] {
            // Right after `dirty`, in the same batch.
            let mut commands = gpu.commands();
            dirty.bind("out", &out).groups([groups, 1, 1]).record(&mut commands).expect("dirty");
            reader.bind("out", &out).groups([groups, 1, 1]).record(&mut commands).expect(name);
            commands.submit().expect("submit").wait().await.expect("wait");
            let got = out.read().await.expect("read");
            let first = got.iter().position(|&v| v != 0);
            assert_eq!(first, None, "round {round}: `{name}` read nonzero workgroup memory (invocation {first:?} of {wg} per group)");
        }
    }
    }
}

gpu_test! {
    /// A buffer copied onto itself (or a view of itself) is left as it is; clearing a view
    /// zeroes what the view sees and nothing past it.
    async fn copies_onto_themselves_and_cleared_views(gpu) {
    let a = gpu.buffer_from(&[1u32, 2, 3, 4, 5]).expect("buffer");
    a.copy_from(&a).expect("a buffer onto itself");
    a.copy_from(&a.clone()).expect("onto its clone");
    let mut batch = gpu.commands();
    batch.copy(&a, &a.view_as::<u32>()).expect("onto its view");
    batch.submit().expect("submit").wait().await.expect("wait");
    assert_eq!(a.read().await.expect("read"), [1, 2, 3, 4, 5]);
    let mut batch = gpu.commands();
    batch.clear(&a.view_as::<shoal::glam::UVec4>());
    batch.submit().expect("submit").wait().await.expect("wait");
    assert_eq!(a.read().await.expect("read"), [0, 0, 0, 0, 5], "the view's 16 bytes only");
    }

    /// Images copy between formats wgpu can copy between only: another format is a typed error
    /// when recorded (not wgpu's at submit); an image onto itself is left as it is.
    async fn image_copies_check_their_formats(gpu) {
    use shoal::wgpu::TextureFormat;
    let texels = [[1u8, 2, 3, 4]; 16];
    let src = gpu.image_from(4, 4, TextureFormat::Rgba8Unorm, &texels).expect("image");
    let floats = gpu.image_zeroed(4, 4, TextureFormat::R32Float).expect("image");
    let mut batch = gpu.commands();
    let e = batch.copy_image(&src, &floats).map(|_| ()).expect_err("another format");
    assert!(matches!(e, shoal::Error::InvalidParameter { .. }), "{e}");
    assert!(e.to_string().contains("R32Float") && e.to_string().contains("Rgba8Unorm"), "{e}");
    batch.copy_image(&src, &src).expect("onto itself");
    batch.submit().expect("submit").wait().await.expect("wait");
    assert_eq!(src.read::<[u8; 4]>().await.expect("read"), texels.to_vec());
    }
}
