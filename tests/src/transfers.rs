//! Host-to-device transfers and where they fall in the GPU's order: `Buffer::write` (and the
//! append buffer's `clear`/`fill`) take effect before the whole of any batch submitted after
//! them, even one recorded before; `Commands::write` and `AppendBuffer::record_clear` run in
//! the batch's order. Also: the checks a write makes, the wall-clock timing's end, and indirect
//! counts above the device's limit (docs/model.md, "Host and device").

use shoal::glam::UVec4;
use shoal::{Error, Gpu};

use crate::gpu_test;

/// Writes `p.x + 1` into `out[0]`: the value of the uniform the dispatch saw.
const SEEN: &str = "
@group(0) @binding(0) var<uniform> p: vec4<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn seen() { out[0] = p.x + 1u; }";

/// Appends `n.x` items (0, 1, …) to `items`.
const APPEND: &str = "
#import shoal::append(items, u32)
@group(0) @binding(0) var<storage, read_write> items: ShoalAppend_items;
@group(0) @binding(1) var<uniform> n: vec4<u32>;
@compute @workgroup_size(64)
fn push(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < n.x { items_append(id.x); }
}";

/// A 2-byte element: its stride is not a whole number of 4-byte words.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
struct Half(u16);
shoal::pod_element!(Half);

/// Records `seen` with `p` into `out` twice (into `first`, then `second`), with `between` run
/// after the first recording; returns what each dispatch saw.
async fn two_dispatches(
    gpu: &Gpu,
    between: impl FnOnce(&mut shoal::Commands, &shoal::Buffer<UVec4>),
) -> (u32, u32) {
    let seen = gpu
        .kernel(shoal::Source::new("seen.wgsl", SEEN))
        .expect("kernel");
    let p = gpu.uniform(&UVec4::new(1, 0, 0, 0)).expect("uniform");
    let (first, second) = (
        gpu.buffer_zeroed::<u32>(1).expect("first"),
        gpu.buffer_zeroed::<u32>(1).expect("second"),
    );
    let mut commands = gpu.commands();
    seen.bind("p", &p)
        .bind("out", &first)
        .groups([1, 1, 1])
        .record(&mut commands)
        .expect("first");
    between(&mut commands, &p);
    seen.bind("p", &p)
        .bind("out", &second)
        .groups([1, 1, 1])
        .record(&mut commands)
        .expect("second");
    commands
        .submit()
        .expect("submit")
        .wait()
        .await
        .expect("wait");
    (
        first.read().await.expect("read")[0],
        second.read().await.expect("read")[0],
    )
}

gpu_test! {
    /// `Commands::write` between two dispatches of one batch: the first sees scale 1, the
    /// second scale 10, as recorded.
    async fn a_write_recorded_into_a_batch_runs_in_its_order(gpu) {
    let got = two_dispatches(&gpu, |commands, p| {
        commands.write(p, &[UVec4::new(10, 0, 0, 0)]).expect("recorded write");
    })
    .await;
    assert_eq!(got, (2, 11), "the first dispatch saw 1, the second 10");
    }

    /// `Buffer::write` (docs/model.md): it takes effect before the whole of the next batch
    /// submitted, so even a dispatch recorded before the call sees the new value.
    async fn a_buffer_write_takes_effect_before_a_batch_recorded_earlier(gpu) {
    let got = two_dispatches(&gpu, |_, p| p.write(&[UVec4::new(10, 0, 0, 0)]).expect("write")).await;
    assert_eq!(got, (11, 11), "both dispatches saw 10: the write ran before the batch");
    }

    /// `write_at` in a batch, beside copies: each copy sees the writes recorded before it.
    async fn writes_and_copies_in_a_batch_keep_their_order(gpu) {
    let v = gpu.buffer_from(&[1u32, 2, 3, 4]).expect("buffer");
    let (a, b) = (gpu.buffer_zeroed::<u32>(4).expect("a"), gpu.buffer_zeroed::<u32>(4).expect("b"));
    let mut commands = gpu.commands();
    commands.write_at(&v, 1, &[20, 30]).expect("write").copy(&v, &a).expect("copy");
    commands.write(&v, &[]).expect("nothing").write_at(&v, 3, &[40]).expect("write").copy(&v, &b).expect("copy");
    commands.submit().expect("submit").wait().await.expect("wait");
    assert_eq!(a.read().await.expect("a"), [1, 20, 30, 4]);
    assert_eq!(b.read().await.expect("b"), [1, 20, 30, 40]);
    }

    /// `AppendBuffer::record_clear` empties the buffer in the batch's order; `clear` (the host
    /// call) empties it before the batch, even one recorded earlier.
    async fn an_append_buffer_cleared_in_a_batch_and_from_the_host(gpu) {
    let push = gpu.kernel(shoal::Source::new("push.wgsl", APPEND)).expect("kernel");
    let items = gpu.append_buffer::<u32>(64).expect("append buffer");
    let (three, five) = (gpu.uniform(&UVec4::new(3, 0, 0, 0)).expect("n"), gpu.uniform(&UVec4::new(5, 0, 0, 0)).expect("n"));
    let mut commands = gpu.commands();
    push.bind("items", &items).bind("n", &three).groups([1, 1, 1]).record(&mut commands).expect("push 3");
    items.record_clear(&mut commands).expect("record_clear");
    push.bind("items", &items).bind("n", &five).groups([1, 1, 1]).record(&mut commands).expect("push 5");
    commands.submit().expect("submit").wait().await.expect("wait");
    let mut got = items.read().await.expect("read");
    got.sort_unstable();
    assert_eq!(got, [0, 1, 2, 3, 4], "only the items appended after the recorded clear");
    let mut commands = gpu.commands();
    push.bind("items", &items).bind("n", &three).groups([1, 1, 1]).record(&mut commands).expect("push 3");
    items.clear().expect("clear");
    commands.submit().expect("submit").wait().await.expect("wait");
    assert_eq!(items.count().await.expect("count"), 3, "the host's clear ran before the batch");
    }

    /// `AppendBuffer::record_fill` replaces the contents in the batch's order: what was appended
    /// before it is gone, what is appended after it follows the filled items; too many items is
    /// a typed error that records nothing. `fill` (the host call) runs before the batch.
    async fn an_append_buffer_filled_in_a_batch_and_from_the_host(gpu) {
    let push = gpu.kernel(shoal::Source::new("push.wgsl", APPEND)).expect("kernel");
    let items = gpu.append_buffer::<u32>(6).expect("append buffer");
    let (three, two) = (gpu.uniform(&UVec4::new(3, 0, 0, 0)).expect("n"), gpu.uniform(&UVec4::new(2, 0, 0, 0)).expect("n"));
    let mut commands = gpu.commands();
    push.bind("items", &items).bind("n", &three).groups([1, 1, 1]).record(&mut commands).expect("push 3");
    items.record_fill(&mut commands, &[70, 80]).expect("record_fill");
    let e = items.record_fill(&mut commands, &[1; 7]).expect_err("7 items in 6 places");
    assert!(matches!(e, Error::AppendOverflow { capacity: 6, attempted: 7, .. }), "{e}");
    push.bind("items", &items).bind("n", &two).groups([1, 1, 1]).record(&mut commands).expect("push 2");
    commands.submit().expect("submit").wait().await.expect("wait");
    let got = items.read().await.expect("read");
    assert_eq!(got[..2], [70, 80], "the filled items first");
    let mut pushed = got[2..].to_vec();
    pushed.sort_unstable();
    assert_eq!(pushed, [0, 1], "then only what was appended after the fill");
    let mut commands = gpu.commands();
    items.record_fill(&mut commands, &[]).expect("fill with nothing");
    commands.submit().expect("submit").wait().await.expect("wait");
    assert_eq!(items.count().await.expect("count"), 0, "filled with nothing: empty");
    let mut commands = gpu.commands();
    push.bind("items", &items).bind("n", &three).groups([1, 1, 1]).record(&mut commands).expect("push 3");
    items.fill(&[5, 6, 7, 8, 9, 10]).expect("fill to the capacity");
    commands.submit().expect("submit").wait().await.expect("wait");
    // The host's fill ran before the batch, whose 3 appends then overflowed.
    let e = items.read().await.map(|_| ()).expect_err("9 appended to 6 places");
    assert!(matches!(e, Error::AppendOverflow { capacity: 6, attempted: 9, .. }), "{e}");
    }

    /// An append buffer of 2-byte items filled with an odd number of them, from the host and in
    /// a batch: the last word is padded, not refused.
    async fn append_buffers_of_two_byte_items_fill_an_odd_count(gpu) {
    let items = gpu.append_buffer::<Half>(5).expect("append buffer");
    items.fill(&[Half(1), Half(2), Half(3)]).expect("fill");
    assert_eq!(items.read().await.expect("read"), [Half(1), Half(2), Half(3)]);
    let mut commands = gpu.commands();
    items.record_fill(&mut commands, &[Half(4), Half(5), Half(6), Half(7), Half(8)]).expect("record_fill");
    commands.submit().expect("submit").wait().await.expect("wait");
    assert_eq!(items.read().await.expect("read"), [Half(4), Half(5), Half(6), Half(7), Half(8)]);
    }

    /// Elements of 2 bytes: a write starts on a 4-byte word and ends on one or at the buffer's
    /// end (its padding zeroed); anything else is a typed error, from both forms.
    async fn writes_of_two_byte_elements_are_whole_words_or_refused(gpu) {
    let v = gpu.buffer_from(&[Half(1), Half(2), Half(3)]).expect("buffer");
    v.write_at(2, &[Half(30)]).expect("the last element, padded to its word");
    let mut commands = gpu.commands();
    commands.write(&v, &[Half(10), Half(20)]).expect("the first word");
    commands.submit().expect("submit").wait().await.expect("wait");
    assert_eq!(v.read().await.expect("read"), [Half(10), Half(20), Half(30)]);
    for (first, data) in [(1, &[Half(7)][..]), (0, &[Half(7)][..]), (1, &[Half(7), Half(8)][..])] {
        let host = v.write_at(first, data).expect_err("not whole words");
        let recorded = gpu.commands().write_at(&v, first, data).map(|_| ()).expect_err("not whole words");
        for e in [host, recorded] {
            assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
            assert!(e.to_string().contains("4-byte words"), "{e}");
        }
    }
    assert_eq!(v.read().await.expect("read"), [Half(10), Half(20), Half(30)], "nothing written");
    // Wrapped with `from_raw`, 3 halves of a 16-byte buffer: bytes 6 and 7 are the owner's, not
    // padding, so the last element alone is refused rather than written with them zeroed.
    let raw = gpu.device().create_buffer(&shoal::wgpu::BufferDescriptor {
        label: Some("16 bytes, 3 halves"),
        size: 16,
        usage: shoal::wgpu::BufferUsages::STORAGE | shoal::wgpu::BufferUsages::COPY_SRC | shoal::wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let wrapped = shoal::Buffer::<Half>::from_raw(&gpu, raw, 3).expect("wrap");
    let e = wrapped.write_at(2, &[Half(9)]).expect_err("its owner's bytes");
    assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
    wrapped.write_at(0, &[Half(4), Half(5)]).expect("the first word");
    assert_eq!(wrapped.read().await.expect("read"), [Half(4), Half(5), Half(0)]);
    // Reads of any range, a word's second half included (they were `Readback` errors).
    assert_eq!(v.read_range(1..2).await.expect("the second half of a word"), [Half(20)]);
    assert_eq!(v.read_range(1..3).await.expect("across a word"), [Half(20), Half(30)]);
    }

    /// A write at an element past the end says so, even with no data (it said only "expected 0
    /// elements, got 0"); still `Length`, as elements past the end are.
    async fn a_write_past_the_end_says_where_the_end_is(gpu) {
    let v = gpu.buffer_zeroed::<u32>(4).expect("buffer");
    for e in [v.write_at(5, &[]).expect_err("past the end"), gpu.commands().write_at(&v, 5, &[1]).map(|_| ()).expect_err("past the end")] {
        assert!(matches!(e, Error::Length { expected: 0, .. }), "{e}");
        let message = e.to_string();
        assert!(message.contains("element 5 of a Buffer<u32> of 4 elements, past its end (elements 0 to 3)"), "{message}");
    }
    let e = gpu.buffer_zeroed::<u32>(0).expect("empty").write_at(1, &[]).expect_err("past the end");
    assert!(e.to_string().contains("past its end (it has none)"), "{e}");
    v.write_at(4, &[]).expect("nothing at the end");
    let e = gpu.commands().write_at(&v, 3, &[1, 2]).map(|_| ()).expect_err("one too many");
    assert!(matches!(e, Error::Length { expected: 1, got: 2, .. }), "{e}");
    }

    /// A buffer without COPY_DST (wrapped with `from_raw`) cannot be written or copied into:
    /// `MissingUsage`.
    async fn writing_a_buffer_without_copy_dst_is_missing_usage(gpu) {
    let raw = gpu.device().create_buffer(&shoal::wgpu::BufferDescriptor {
        label: Some("no copy_dst"),
        size: 16,
        usage: shoal::wgpu::BufferUsages::STORAGE | shoal::wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let v = shoal::Buffer::<u32>::from_raw(&gpu, raw, 4).expect("wrap");
    let host = v.write(&[1]).expect_err("host write");
    let recorded = gpu.commands().write(&v, &[1]).map(|_| ()).expect_err("recorded write");
    // A copy into it too, before anything is submitted (it was wgpu's error at submit); out of
    // it is fine (COPY_SRC).
    let other = gpu.buffer_zeroed::<u32>(4).expect("other");
    let copied = gpu.commands().copy(&other, &v).map(|_| ()).expect_err("copy into it");
    gpu.commands().copy(&v, &other).expect("copy out of it");
    for e in [host, recorded, copied] {
        assert!(matches!(e, Error::MissingUsage { .. }), "{e}");
        assert!(e.to_string().contains("COPY_DST"), "{e}");
    }
    }

    /// A kernel writes x = 70,000 (above MAX_COMPUTE_WORK_GROUP_COUNT, 65,535) into indirect
    /// arguments, and the next dispatch of the batch takes them: Shoal cannot check a count on
    /// the GPU, and wgpu (WebGPU too) skips such a dispatch. Nothing runs, nothing reports an
    /// error, and the `Gpu` stays usable (docs/model.md, "Indirect dispatch").
    async fn an_indirect_count_above_the_limit_runs_nothing_without_an_error(gpu) {
    let source = shoal::wgsl!("../../wgsl/conformance/indirect.wgsl");
    let writer = gpu.kernel_builder(source.clone()).entry("write_args").build().expect("writer");
    let counter = gpu.kernel_builder(source).entry("count_groups").build().expect("counter");
    let args = gpu.buffer_zeroed_with::<u32>(3, shoal::Usage::STORAGE | shoal::Usage::INDIRECT).expect("args");
    let over = gpu.limits().max_compute_work_group_count[0].saturating_add(4465).max(70_000);
    let wanted = gpu.uniform(&UVec4::new(over, 1, 1, 0)).expect("wanted");
    let ran = gpu.buffer_zeroed::<u32>(2).expect("ran");
    let mut commands = gpu.commands();
    writer.bind("args", &args).bind("wanted", &wanted).groups([1, 1, 1]).record(&mut commands).expect("writer");
    counter.bind("ran", &ran).indirect(&args, 0).record(&mut commands).expect("recorded: the count is not known yet");
    commands.submit().expect("no error at submit").wait().await.expect("no error at the wait");
    assert_eq!(args.read().await.expect("args"), [over, 1, 1], "the GPU wrote the count");
    assert_eq!(ran.read().await.expect("ran"), [0, 0], "no work group ran");
    counter.bind("ran", &ran).groups([2, 1, 1]).run().expect("the Gpu stays usable");
    assert_eq!(ran.read().await.expect("ran"), [2, 16]);
    }
}

crate::async_test! {
    /// Without timestamp queries the batch's time is the wall clock from submit to the wait that
    /// saw it finish, not to the call of `timings` (which gave the delay after the wait).
    async fn wall_clock_timings_end_when_the_wait_saw_the_batch_finish() {
    use shoal::wgpu::Features;
    let withheld = Features::TIMESTAMP_QUERY | Features::TIMESTAMP_QUERY_INSIDE_ENCODERS | Features::TIMESTAMP_QUERY_INSIDE_PASSES;
    let options = shoal::GpuOptions { withheld_features: withheld, ..Default::default() };
    let gpu = Gpu::with_options(options).await.expect("device");
    assert!(!gpu.has_timestamps());
    let seen = gpu.kernel(shoal::Source::new("seen.wgsl", SEEN)).expect("kernel");
    let (p, out) = (gpu.uniform(&UVec4::ONE).expect("p"), gpu.buffer_zeroed::<u32>(1).expect("out"));
    let mut commands = gpu.commands().profiled();
    seen.bind("p", &p).bind("out", &out).groups([1, 1, 1]).record(&mut commands).expect("record");
    let submission = commands.submit().expect("submit");
    submission.wait().await.expect("wait");
    // Natively, a delay between the wait and `timings` (the browser cannot block).
    #[cfg(not(target_arch = "wasm32"))]
    let delay = {
        let delay = std::time::Duration::from_millis(800);
        std::thread::sleep(delay);
        delay
    };
    let timings = submission.timings().await.expect("timings");
    assert_eq!(timings.len(), 1, "{timings:?}");
    assert_eq!(timings[0].source, shoal::TimingSource::WallClock);
    assert!(timings[0].nanos >= 0.0 && timings[0].nanos.is_finite(), "{}", timings[0]);
    #[cfg(not(target_arch = "wasm32"))]
    assert!(timings[0].millis() < delay.as_secs_f64() * 1e3 / 2.0, "{} counts the {delay:?} after the wait", timings[0]);
    assert_eq!(out.read().await.expect("read"), [2]);
    }
}

crate::async_test! {
    /// `Commands::write` of another `Gpu`'s buffer, and `record_clear` of its append buffer.
    async fn writes_and_clears_recorded_for_another_gpu_are_wrong_gpu() {
    let (a, b) = (Gpu::new().await.expect("first"), Gpu::new().await.expect("second"));
    let theirs = b.buffer_zeroed::<u32>(2).expect("buffer");
    let e = a.commands().write(&theirs, &[1, 2]).map(|_| ()).expect_err("another Gpu's buffer");
    assert!(matches!(e, Error::WrongGpu { .. }), "{e}");
    let items = b.append_buffer::<u32>(4).expect("append buffer");
    let e = items.record_clear(&mut a.commands()).expect_err("another Gpu's append buffer");
    assert!(matches!(e, Error::WrongGpu { .. }), "{e}");
    let e = items.record_fill(&mut a.commands(), &[1]).expect_err("another Gpu's append buffer");
    assert!(matches!(e, Error::WrongGpu { .. }), "{e}");
    }
}
