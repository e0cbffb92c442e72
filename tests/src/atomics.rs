//! Atomics: counters in storage buffers, 64-bit atomics where the adapter has them (a typed
//! error where it does not), append/consume buffers (exact fill, overflow, empty consume,
//! GPU-written indirect arguments) and GPU printf with its overflow.

use shoal::{AppendBuffer, DispatchArgs, Error, Gpu, PrintValue, Usage};

use crate::gpu_test;
use crate::rng::Rng;

/// A 1D work-group size planned from the device (the browser allows 256).
fn wg(gpu: &Gpu) -> u32 {
    gpu.max_workgroup_1d(256)
}

fn kernel(gpu: &Gpu, label: &str, src: &str) -> shoal::Kernel {
    gpu.kernel_builder(shoal::Source::new(label, src.to_string()))
        .constant("WG", wg(gpu))
        .build()
        .expect("kernel")
}

const HISTOGRAM: &str = "
override WG: u32 = 64;
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> next: atomic<u32>;
@group(0) @binding(3) var<storage, read_write> slots: array<u32>;
@compute @workgroup_size(WG)
fn histogram(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&values) { return; }
    atomicAdd(&bins[values[id.x] % arrayLength(&bins)], 1u);
    // A counter handing out slots: each invocation gets its own.
    slots[atomicAdd(&next, 1u)] = id.x;
}";

gpu_test! {
    /// atomicAdd on storage counters: a histogram equal to the CPU's, and a slot counter that
    /// hands every invocation a distinct slot.
    async fn atomic_counters_in_storage_buffers(gpu) {
        let k = kernel(&gpu, "histogram.wgsl", HISTOGRAM);
        let mut rng = Rng::new(3);
        let n = 10_000u32;
        let values: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
        let bins = gpu.buffer_zeroed::<u32>(17).expect("bins");
        let next = gpu.buffer_zeroed::<u32>(1).expect("counter");
        let slots = gpu.buffer_zeroed::<u32>(n as u64).expect("slots");
        let input = gpu.buffer_from(&values).expect("values");
        k.bind("values", &input).bind("bins", &bins).bind("next", &next).bind("slots", &slots).invocations(n as u64).run().expect("run");
        let mut expected = vec![0u32; 17];
        for v in &values {
            expected[(v % 17) as usize] += 1;
        }
        assert_eq!(bins.read().await.expect("read"), expected);
        assert_eq!(next.read().await.expect("read"), [n]);
        let mut got = slots.read().await.expect("read");
        got.sort_unstable();
        assert!(got.iter().copied().eq(0..n), "every invocation took exactly one slot");
    }
}

const SUM64: &str = "
override WG: u32 = 64;
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: atomic<u64>;
@compute @workgroup_size(WG)
fn sum64(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&values) { return; }
    atomicAdd(&total, u64(values[id.x]) * 1000000lu);
}";

gpu_test! {
    /// 64-bit atomics: a sum past 2^32 where the adapter has them (lavapipe), and where it does
    /// not (llvmpipe, the browser) a typed error at creation naming the feature.
    async fn int64_atomics_run_where_present_and_are_an_error_where_not(gpu) {
        let built = gpu.kernel_builder(shoal::Source::new("sum64.wgsl", SUM64)).constant("WG", wg(&gpu)).build();
        if !gpu.has_int64_atomics() {
            let e = built.expect_err("no 64-bit atomics here");
            assert!(matches!(e, Error::MissingFeature { .. }), "{e}");
            let message = e.to_string();
            assert!(message.contains("sum64.wgsl:sum64") && message.contains("SHADER_INT64_ATOMIC_ALL_OPS"), "{message}");
            return;
        }
        let k = built.expect("kernel");
        let values: Vec<u32> = (0..5000).map(|i| i * 7 + 3).collect();
        let input = gpu.buffer_from(&values).expect("values");
        let total = gpu.buffer_zeroed::<[u32; 2]>(1).expect("total");
        k.bind("values", &input).bind("total", &total).invocations(values.len() as u64).run().expect("run");
        let [lo, hi] = total.read().await.expect("read")[0];
        let expected: u64 = values.iter().map(|&v| v as u64 * 1_000_000).sum();
        assert!(expected > u32::MAX as u64);
        assert_eq!((hi as u64) << 32 | lo as u64, expected);
    }
}

const FILTER: &str = "
#import shoal::append(odd, u32)
override WG: u32 = 64;
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> odd: ShoalAppend_odd;
@compute @workgroup_size(WG)
fn keep_odd(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&values) { return; }
    if values[id.x] % 2u == 1u { odd_append(values[id.x]); }
}";

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

gpu_test! {
    /// Appending exactly as many items as the buffer holds: all of them, in some order.
    async fn append_fills_a_buffer_exactly(gpu) {
        let k = kernel(&gpu, "keep_odd.wgsl", FILTER);
        let values: Vec<u32> = (0..3000).collect();
        let odd_count = values.iter().filter(|v| *v % 2 == 1).count() as u64;
        let input = gpu.buffer_from(&values).expect("values");
        let odd: AppendBuffer<u32> = gpu.append_buffer(odd_count).expect("append buffer");
        k.bind("values", &input).bind("odd", &odd).invocations(values.len() as u64).run().expect("run");
        assert_eq!(odd.count().await.expect("count"), odd_count);
        let expected: Vec<u32> = values.iter().copied().filter(|v| v % 2 == 1).collect();
        assert_eq!(sorted(odd.read().await.expect("read")), expected);
        odd.clear().expect("clear");
        assert_eq!(odd.count().await.expect("count"), 0);
    }
}

gpu_test! {
    /// Appending past the capacity writes nothing beyond it: the items kept are valid, the
    /// memory after the buffer's items is untouched, and reading reports the attempted count.
    async fn append_overflow_is_reported_with_the_attempted_count(gpu) {
        let k = kernel(&gpu, "keep_odd.wgsl", FILTER);
        let values: Vec<u32> = (0..1000).collect();
        let input = gpu.buffer_from(&values).expect("values");
        let odd: AppendBuffer<u32> = gpu.append_buffer(100).expect("append buffer");
        // Sentinels where item 100 onwards would go if the bound check failed: the wgpu buffer
        // is exactly header + capacity items, so write past it cannot be observed; instead fill
        // the items and check the kept ones are genuine odd inputs, each once.
        k.bind("values", &input).bind("odd", &odd).invocations(values.len() as u64).run().expect("run");
        let e = odd.count().await.expect_err("overflow");
        assert!(matches!(e, Error::AppendOverflow { capacity: 100, attempted: 500, .. }), "{e}");
        assert!(e.to_string().contains("500") && e.to_string().contains("400"), "{e}");
        assert!(matches!(odd.read().await, Err(Error::AppendOverflow { .. })));
        // What the GPU kept: the 100 slots, each a distinct odd input.
        let bytes = odd.raw().size();
        assert_eq!(bytes, 16 + 100 * 4, "no room was made for more than the capacity");
        let kept = shoal::Buffer::<u32>::from_raw(&gpu, odd.raw().clone(), bytes / 4).expect("view");
        let kept = kept.read().await.expect("read");
        let items = sorted(kept[4..].to_vec());
        assert!(items.iter().all(|v| v % 2 == 1) && items.windows(2).all(|w| w[0] < w[1]), "{items:?}");
        let e = odd.fill(&values).expect_err("fill past capacity");
        assert!(matches!(e, Error::AppendOverflow { capacity: 100, attempted: 1000, .. }), "{e}");
    }
}

gpu_test! {
    /// A capacity of 0: its one item of room (WGSL arrays are never empty) is never written, and
    /// every append is counted as overflow.
    async fn an_append_buffer_of_capacity_zero_writes_nothing(gpu) {
        let k = kernel(&gpu, "keep_odd.wgsl", FILTER);
        let input = gpu.buffer_from(&[1u32, 3, 5]).expect("values");
        let odd: AppendBuffer<u32> = gpu.append_buffer(0).expect("append buffer");
        k.bind("values", &input).bind("odd", &odd).invocations(3).run().expect("run");
        let e = odd.count().await.expect_err("3 appended to none");
        assert!(matches!(e, Error::AppendOverflow { capacity: 0, attempted: 3, .. }), "{e}");
        let raw = shoal::Buffer::<u32>::from_raw(&gpu, odd.raw().clone(), 5).expect("view");
        assert_eq!(raw.read().await.expect("read")[4], 0, "the item of room stays unwritten");
    }
}

const DRAIN: &str = "
#import shoal::append(queue, u32)
override WG: u32 = 64;
@group(0) @binding(0) var<storage, read_write> queue: ShoalAppend_queue;
@group(0) @binding(1) var<storage, read_write> got: array<u32>;
@compute @workgroup_size(WG)
fn drain(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&got) { return; }
    var item: u32;
    // Consume first: select() would read `item` before the call writes it.
    let took = queue_consume(&item);
    got[id.x] = select(0xffffffffu, item, took);
}";

gpu_test! {
    /// Consuming: more consumers than items take every item once and the rest find it empty;
    /// consuming an empty buffer finds nothing and leaves the count at zero.
    async fn consume_takes_each_item_once_and_empty_consume_finds_nothing(gpu) {
        let k = kernel(&gpu, "drain.wgsl", DRAIN);
        let items: Vec<u32> = (0..300).map(|i| i * 3).collect();
        let queue = gpu.append_buffer_from(&items, 512).expect("append buffer");
        let got = gpu.buffer_zeroed::<u32>(700).expect("got");
        k.bind("queue", &queue).bind("got", &got).invocations(700).run().expect("run");
        let got = got.read().await.expect("read");
        let taken: Vec<u32> = got.iter().copied().filter(|&v| v != u32::MAX).collect();
        assert_eq!(sorted(taken), items, "each item consumed exactly once");
        assert_eq!(got.iter().filter(|&&v| v == u32::MAX).count(), 400, "the other consumers found it empty");
        assert_eq!(queue.count().await.expect("count"), 0);

        let empty: AppendBuffer<u32> = gpu.append_buffer(16).expect("append buffer");
        let none = gpu.buffer_zeroed::<u32>(64).expect("got");
        k.bind("queue", &empty).bind("got", &none).invocations(64).run().expect("run");
        assert!(none.read().await.expect("read").iter().all(|&v| v == u32::MAX));
        assert_eq!(empty.count().await.expect("count"), 0, "the counter was given back");
    }
}

const SQUARE: &str = "
#import shoal::append(odd, u32)
#import shoal::append(squares, u32)
override WG: u32 = 64;
@group(0) @binding(0) var<storage, read_write> odd: ShoalAppend_odd;
@group(0) @binding(1) var<storage, read_write> squares: ShoalAppend_squares;
@group(0) @binding(2) var<storage, read_write> launched: atomic<u32>;
@compute @workgroup_size(WG)
fn square(@builtin(global_invocation_id) id: vec3<u32>) {
    atomicAdd(&launched, 1u);
    var v: u32;
    if odd_consume(&v) { squares_append(v * v); }
}";

gpu_test! {
    /// The count the GPU appended becomes the next dispatch's size on the GPU: the indirect
    /// arguments are ceil(count / work group), and the consumer takes every item, in one batch.
    async fn gpu_written_indirect_args_size_the_next_dispatch(gpu) {
        let filter = kernel(&gpu, "keep_odd.wgsl", FILTER);
        let square = kernel(&gpu, "square.wgsl", SQUARE);
        let mut rng = Rng::new(5);
        let values: Vec<u32> = (0..4000).map(|_| rng.next_u32() % 1000).collect();
        let expected: Vec<u32> = sorted(values.iter().filter(|v| *v % 2 == 1).map(|v| v * v).collect());
        let input = gpu.buffer_from(&values).expect("values");
        let odd: AppendBuffer<u32> = gpu.append_buffer(values.len() as u64).expect("odd");
        let squares: AppendBuffer<u32> = gpu.append_buffer(values.len() as u64).expect("squares");
        let args = gpu.buffer_zeroed_with::<DispatchArgs>(1, Usage::STORAGE | Usage::INDIRECT).expect("args");
        let launched = gpu.buffer_zeroed::<u32>(1).expect("launched");
        let mut commands = gpu.commands();
        filter.bind("values", &input).bind("odd", &odd).invocations(values.len() as u64).record(&mut commands).expect("filter");
        odd.record_dispatch_args(&mut commands, &args, wg(&gpu)).expect("args");
        square.bind("odd", &odd).bind("squares", &squares).bind("launched", &launched).indirect(&args, 0).record(&mut commands).expect("square");
        commands.submit().expect("submit");
        let count = expected.len() as u32;
        let groups = count.div_ceil(wg(&gpu));
        assert_eq!(args.read().await.expect("args"), [DispatchArgs::new(groups, 1, 1)]);
        assert_eq!(launched.read().await.expect("launched"), [groups * wg(&gpu)]);
        assert_eq!(sorted(squares.read().await.expect("squares")), expected);
        assert_eq!(odd.count().await.expect("odd"), 0, "every odd value was consumed");
    }
}

gpu_test! {
    /// Nothing appended: the arguments are zero groups and the dispatch does nothing.
    async fn an_empty_append_buffer_gives_an_empty_dispatch(gpu) {
        let square = kernel(&gpu, "square.wgsl", SQUARE);
        let odd: AppendBuffer<u32> = gpu.append_buffer(64).expect("odd");
        let squares: AppendBuffer<u32> = gpu.append_buffer(64).expect("squares");
        let args = gpu.buffer_from_with(&[DispatchArgs::new(9, 9, 9)], Usage::STORAGE | Usage::INDIRECT).expect("args");
        let launched = gpu.buffer_zeroed::<u32>(1).expect("launched");
        let mut commands = gpu.commands();
        odd.record_dispatch_args(&mut commands, &args, 64).expect("args");
        square.bind("odd", &odd).bind("squares", &squares).bind("launched", &launched).indirect(&args, 0).record(&mut commands).expect("square");
        commands.submit().expect("submit");
        assert_eq!(args.read().await.expect("args")[0].x, 0);
        assert_eq!(launched.read().await.expect("launched"), [0]);
    }
}

const PRINTS: &str = "
#import shoal::printf
override WG: u32 = 64;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(WG)
fn prints(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x >= arrayLength(&out) { return; }
    out[gid.x] = f32(gid.x) * 0.5;
    if gid.x % 50u == 7u {
        shoal_print_u32(gid, gid.x);
        shoal_print_i32(gid, -i32(gid.x));
        shoal_print_f32(gid, out[gid.x]);
        shoal_print_vec3f(gid, vec3<f32>(1.0, -2.5, f32(gid.x)));
        shoal_print_vec2u(gid, vec2<u32>(gid.x, 42u));
    }
}";

gpu_test! {
    /// printf from chosen invocations: every record with its global id, type and value, in
    /// program order per invocation; the ring is bound without being named.
    async fn printf_records_values_from_chosen_invocations(gpu) {
        let k = kernel(&gpu, "prints.wgsl", PRINTS);
        let out = gpu.buffer_zeroed::<f32>(400).expect("out");
        k.bind("out", &out).invocations(400).run().expect("run");
        let log = k.printed().await.expect("printed").check().expect("no overflow");
        assert_eq!(log.records.len(), 8 * 5);
        for x in (0..400).filter(|x| x % 50 == 7) {
            let got: Vec<&PrintValue> = log.from([x, 0, 0]).collect();
            let want = [
                PrintValue::U32(vec![x]),
                PrintValue::I32(vec![-(x as i32)]),
                PrintValue::F32(vec![x as f32 * 0.5]),
                PrintValue::F32(vec![1.0, -2.5, x as f32]),
                PrintValue::U32(vec![x, 42]),
            ];
            assert_eq!(got, want.iter().collect::<Vec<_>>(), "invocation {x}");
        }
        let text = log.to_string();
        // Each record names its call: file, line and column as written.
        assert!(text.contains("prints.wgsl:13:9: [57, 0, 0] vec3<f32>(1, -2.5, 57)"), "{text}");
        assert_eq!(log.records[0].location.as_deref(), Some("prints.wgsl:10:9"));
        assert!(text.contains("[7, 0, 0] i32 -7"), "{text}");
        assert!(k.printed().await.expect("printed").records.is_empty(), "reading empties the ring");
        assert_eq!(out.read().await.expect("read")[9], 4.5, "the kernel's own work ran");
    }
}

gpu_test! {
    /// A ring no binding of this device could see is refused when the kernel is built, naming
    /// `printf_capacity` and the largest that fits (it was made, then every dispatch failed).
    async fn a_printf_ring_larger_than_a_binding_is_refused_at_build(gpu) {
        let src = "
            #import shoal::printf
            @compute @workgroup_size(1)
            fn chatty(@builtin(global_invocation_id) gid: vec3<u32>) { shoal_print_u32(gid, 1u); }";
        let limit = gpu.limits().max_storage_buffer_binding_size;
        let fits = ((limit - 16) / 32).min(u32::MAX as u64) as u32;
        for records in [u32::MAX, fits.saturating_add(1)] {
            if records as u64 * 32 + 16 <= limit {
                continue;
            }
            let e = gpu.kernel_builder(shoal::Source::new("chatty.wgsl", src)).printf_capacity(records).build().expect_err("too large");
            assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
            for part in ["chatty.wgsl:chatty", "printf_capacity", &fits.to_string(), "max_storage_buffer_binding_size"] {
                assert!(e.to_string().contains(part), "{e} should name {part}");
            }
        }
    }
}

gpu_test! {
    /// More records than the ring holds: the first are kept, the rest counted and reported.
    async fn printf_overflow_is_reported(gpu) {
        let src = "
            #import shoal::printf
            @compute @workgroup_size(64)
            fn chatty(@builtin(global_invocation_id) gid: vec3<u32>) { shoal_print_u32(gid, gid.x * 2u); }";
        let k = gpu.kernel_builder(shoal::Source::new("chatty.wgsl", src)).printf_capacity(10).build().expect("kernel");
        k.dispatch().groups([2, 1, 1]).run().expect("run");
        let log = k.printed().await.expect("printed");
        assert_eq!((log.records.len(), log.attempted, log.capacity, log.dropped()), (10, 128, 10, 118));
        assert!(log.records.iter().all(|r| r.value == PrintValue::U32(vec![r.gid[0] * 2])));
        assert!(log.to_string().contains("118 of 128 records dropped"), "{log}");
        let e = log.check().expect_err("overflow");
        assert!(matches!(e, Error::PrintfOverflow { capacity: 10, attempted: 128, .. }), "{e}");
        assert!(e.to_string().contains("chatty.wgsl:chatty"), "{e}");
    }
}

/// Reading a ring while another thread dispatches into it loses no record: the read copies the
/// ring and clears its cursor in one submission, so each dispatch's records land wholly before
/// the read (and are in it) or wholly after (and are in the next). The reset used to be a queued
/// write after the read, which wiped records written between the two without counting them.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn printf_reads_beside_dispatches_lose_no_record() {
    let gpu = Gpu::blocking().expect("device");
    let src = "
        #import shoal::printf
        @compute @workgroup_size(4)
        fn chatty(@builtin(global_invocation_id) gid: vec3<u32>) { shoal_print_u32(gid, gid.x); }";
    let k = gpu
        .kernel_builder(shoal::Source::new("chatty.wgsl", src))
        .printf_capacity(1 << 16)
        .build()
        .expect("kernel");
    let dispatches = 300u64;
    let done = std::sync::atomic::AtomicBool::new(false);
    let mut logs = Vec::new();
    std::thread::scope(|s| {
        s.spawn(|| {
            for _ in 0..dispatches {
                k.dispatch().groups([1, 1, 1]).run().expect("run");
            }
            done.store(true, std::sync::atomic::Ordering::Release);
        });
        while !done.load(std::sync::atomic::Ordering::Acquire) {
            logs.push(pollster::block_on(k.printed()).expect("printed"));
        }
    });
    logs.push(pollster::block_on(k.printed()).expect("printed"));
    assert!(logs.len() > 1, "the reads ran beside the dispatches");
    let mut per_gid = [0u64; 4];
    for log in &logs {
        assert_eq!(log.dropped(), 0, "{log}");
        for r in &log.records {
            assert_eq!(r.value, PrintValue::U32(vec![r.gid[0]]));
            per_gid[r.gid[0] as usize] += 1;
        }
    }
    assert_eq!(per_gid, [dispatches; 4], "over {} reads", logs.len());
}

gpu_test! {
    /// An append buffer's items start after its 16-byte header: bound to a struct whose array
    /// starts elsewhere, or to a plain array, it is a typed error naming both offsets (it was
    /// bound, and its header read as items).
    async fn an_append_buffer_bound_to_another_layout_is_an_error(gpu) {
    let shifted = gpu.kernel(shoal::Source::new("shifted.wgsl", "
        struct A { count: atomic<u32>, cap: u32, items: array<u32> }
        @group(0) @binding(0) var<storage, read_write> a: A;
        @group(0) @binding(1) var<storage, read_write> o: array<u32>;
        @compute @workgroup_size(1) fn main() { o[0] = atomicLoad(&a.count); o[1] = a.items[0]; }")).expect("kernel");
    let a = gpu.append_buffer_from(&[10u32, 20, 30, 40], 4).expect("append buffer");
    let o = gpu.buffer_zeroed::<u32>(2).expect("o");
    let e = shifted.bind("a", &a).bind("o", &o).groups([1, 1, 1]).run().expect_err("items at byte 8");
    assert!(matches!(e, shoal::Error::BindingKind { .. }), "{e}");
    for part in ["shifted.wgsl:main", "`a`", "at byte 8", "byte 16"] {
        assert!(e.to_string().contains(part), "{e} should name {part}");
    }
    let plain = gpu.kernel(shoal::Source::new("plain.wgsl", "
        @group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
        @group(0) @binding(1) var<storage, read_write> o: array<f32>;
        @compute @workgroup_size(1) fn main() { o[0] = a[0].x; }")).expect("kernel");
    let o = gpu.buffer_zeroed::<f32>(1).expect("o");
    let e = plain.bind("a", &a).bind("o", &o).groups([1, 1, 1]).run().expect_err("a plain array");
    assert!(matches!(e, shoal::Error::BindingKind { .. }), "{e}");
    }
}
