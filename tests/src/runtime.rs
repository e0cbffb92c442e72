//! The runtime's promises (issue 15, items 4 and 5): waits have a deadline and end in a typed
//! timeout; native reads yield instead of blocking; many threads share one `Gpu` (on GL too);
//! a lost device is an error every call returns, and a new `Gpu` recovers; wgpu's own errors
//! are blamed on the call that caused them; an application's error handler stays called.

use std::sync::{Arc, Mutex};

use shoal::{Error, Gpu};

#[cfg(not(target_arch = "wasm32"))]
use crate::harness::report;

/// Each invocation runs an LCG `n[0]` times from its own value: long, but finite (native tests
/// only: the browser's waits are the browser's).
#[cfg(not(target_arch = "wasm32"))]
const SPIN: &str = "
@group(0) @binding(0) var<storage, read_write> v: array<u32>;
@group(0) @binding(1) var<storage, read> count: array<u32>;
@compute @workgroup_size(64)
fn spin(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&v) { return; }
    var x = v[id.x];
    let n = count[0];
    for (var i = 0u; i < n; i++) { x = x * 1664525u + 1013904223u; }
    v[id.x] = x;
}";

/// What [`SPIN`] leaves in every element when all start at `n`.
#[cfg(not(target_arch = "wasm32"))]
fn spun(n: u32) -> u32 {
    (0..n).fold(n, |x, _| x.wrapping_mul(1664525).wrapping_add(1013904223))
}

const ADD_ONE: &str = "
@group(0) @binding(0) var<storage, read_write> v: array<u32>;
@compute @workgroup_size(64)
fn add_one(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&v) { v[id.x] += 1u; }
}";

/// Invocations and loop count of the long kernel: long enough that a wait sees it running on
/// lavapipe and llvmpipe.
#[cfg(not(target_arch = "wasm32"))]
const SPIN_SIZE: (usize, u32) = (4096, 60_000);

/// A device, the long kernel, its buffer of [`SPIN_SIZE`] counts and the count.
#[cfg(not(target_arch = "wasm32"))]
fn spinning() -> (Gpu, shoal::Kernel, shoal::Buffer<u32>, shoal::Buffer<u32>) {
    let gpu = Gpu::blocking().expect("device");
    let (len, n) = SPIN_SIZE;
    let spin = gpu
        .kernel(shoal::Source::new("spin.wgsl", SPIN))
        .expect("kernel");
    let v = gpu.buffer_from(&vec![n; len]).expect("buffer");
    let count = gpu.buffer_from(&[n]).expect("count");
    (gpu, spin, v, count)
}

/// `spin` over `v` and `count` recorded and submitted: the submission, and how long recording and
/// submitting took.
#[cfg(not(target_arch = "wasm32"))]
fn submit_spin(
    gpu: &Gpu,
    spin: &shoal::Kernel,
    v: &shoal::Buffer<u32>,
    count: &shoal::Buffer<u32>,
) -> (shoal::Submission, std::time::Duration) {
    let started = std::time::Instant::now();
    let mut commands = gpu.commands();
    spin.bind("v", v)
        .bind("count", count)
        .invocations(SPIN_SIZE.0 as u64)
        .record(&mut commands)
        .expect("record");
    (commands.submit().expect("submit"), started.elapsed())
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_wait_past_the_deadline_is_a_timeout_and_the_gpu_stays_usable() {
    let (gpu, spin, v, count) = spinning();
    let n = SPIN_SIZE.1;
    gpu.set_timeout(std::time::Duration::from_millis(20));
    let (submission, submitting) = submit_spin(&gpu, &spin, &v, &count);
    match submission.wait_blocking() {
        Err(Error::Timeout {
            waited,
            limit,
            what,
        }) => {
            assert!(waited >= limit, "{what}: waited {waited:?} of {limit:?}");
        }
        // llvmpipe runs a submission's kernels inside `submit`: the work is done already.
        Ok(()) => assert!(
            submitting >= gpu.timeout(),
            "the wait returned before the deadline though the kernel took longer"
        ),
        Err(e) => panic!("{e}"),
    }
    report(&format!(
        "submit took {submitting:?}, the wait's deadline 20 ms"
    ));
    gpu.set_timeout(shoal::DEFAULT_TIMEOUT);
    submission.wait_blocking().expect("waits again, to the end");
    assert!(
        v.read_blocking()
            .expect("read")
            .iter()
            .all(|&x| x == spun(n))
    );
    let w = gpu.buffer_from(&[1u32, 2]).expect("the Gpu stays usable");
    assert_eq!(w.read_blocking().expect("read"), [1, 2]);
}

/// A readback of an unrelated buffer behind a long kernel has the deadline too: on lavapipe the
/// read's own submit would block until the kernel is done, so the read waits for the kernel
/// first, polling with the deadline (docs/errors.md, `Timeout`).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_read_behind_a_long_kernel_is_a_timeout_and_the_gpu_stays_usable() {
    let (gpu, spin, v, count) = spinning();
    let (len, n) = SPIN_SIZE;
    let small = gpu.buffer_from(&[1u32, 2]).expect("small");
    gpu.set_timeout(std::time::Duration::from_millis(1));
    let started = std::time::Instant::now();
    spin.bind("v", &v)
        .bind("count", &count)
        .invocations(len as u64)
        .run()
        .expect("run");
    let submitting = started.elapsed();
    let started = std::time::Instant::now();
    let read = small.read_blocking();
    let reading = started.elapsed();
    gpu.set_timeout(shoal::DEFAULT_TIMEOUT);
    assert_eq!(small.read_blocking().expect("read again"), [1, 2]);
    // Times compared with each other, not with a figure: the kernel's own length is what the
    // read took plus what was left of it.
    let rest = started.elapsed() - reading;
    match read {
        // Returned while the kernel still had most of its time to run (without the wait before
        // the copy's submit, lavapipe blocked in that submit until the kernel was done).
        Err(Error::Timeout { what, .. }) => {
            assert_eq!(what, "readback");
            // On GL llvmpipe runs the kernel inside `submit`, so a timeout there can only come
            // from what is left of it when the machine is loaded: the read kept its deadline,
            // and nothing more is claimed. On Vulkan the submit returned at once.
            if gpu.adapter_details().backend != shoal::wgpu::Backend::Gl {
                assert!(
                    reading < rest,
                    "timed out after {reading:?}, {rest:?} before the end"
                );
            }
        }
        // llvmpipe runs a submission's kernels inside `submit`: the work was done already.
        Ok(read) => {
            assert_eq!(read, [1, 2]);
            assert!(
                submitting > reading,
                "the read took {reading:?} (the submit {submitting:?}): it waited for the kernel"
            );
        }
        Err(e) => panic!("{e}"),
    }
    report(&format!(
        "submit took {submitting:?}, the read {reading:?} (its deadline 1 ms), then {rest:?}"
    ));
    assert!(
        v.read_blocking()
            .expect("read")
            .iter()
            .all(|&x| x == spun(n))
    );
}

/// A readback while another thread holds the turn it needs (`Gpu::with_turn`: on GL the
/// context's, as another thread's long llvmpipe submission holds it; elsewhere the polling
/// lock) ends at its deadline with a timeout instead of waiting for the turn, and reads once
/// the turn is free (docs/errors.md, `Timeout`).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_read_while_another_thread_holds_the_turn_is_a_timeout() {
    use std::sync::mpsc::channel;
    let gpu = Gpu::blocking().expect("device");
    let small = gpu.buffer_from(&[1u32, 2]).expect("small");
    let (held, turn_held) = channel();
    let (release, released) = channel::<()>();
    let holder = {
        let gpu = gpu.clone();
        std::thread::spawn(move || {
            gpu.with_turn(|| {
                held.send(()).expect("tell");
                // Until the read is over; bounded, so that a read that waits cannot hang.
                let _ = released.recv_timeout(std::time::Duration::from_secs(120));
            })
        })
    };
    turn_held.recv().expect("the turn is held");
    gpu.set_timeout(std::time::Duration::from_millis(50));
    let read = small.read_blocking();
    release.send(()).expect("release");
    holder.join().expect("holder");
    gpu.set_timeout(shoal::DEFAULT_TIMEOUT);
    match read {
        Err(Error::Timeout {
            what,
            waited,
            limit,
        }) => {
            assert_eq!(what, "readback");
            assert!(waited >= limit, "waited {waited:?} of {limit:?}");
        }
        other => panic!("a read behind a held turn: {other:?}"),
    }
    assert_eq!(small.read_blocking().expect("read again"), [1, 2]);
}

/// A readback gets its turn while another thread takes the turn over and over (a loop of
/// submits, each holding it for a while and taking it again at once): the read stands in line,
/// so its tries do not lose every time to the other thread's waits. Without the line the reads
/// lost nearly every try; with it each read ends far inside the 1 s deadline it is given here.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_read_gets_the_turn_from_a_thread_that_keeps_taking_it() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    let gpu = Gpu::blocking().expect("device");
    let small = gpu.buffer_from(&[3u32, 4]).expect("small");
    let stop = Arc::new(AtomicBool::new(false));
    let busy = {
        let (gpu, stop) = (gpu.clone(), Arc::clone(&stop));
        std::thread::spawn(move || {
            // Bounded, so that a reader that never gets the turn cannot hang the test.
            let until = Instant::now() + Duration::from_secs(30);
            let mut turns = 0u32;
            while !stop.load(Ordering::Relaxed) && Instant::now() < until {
                gpu.with_turn(|| std::thread::sleep(Duration::from_millis(2)));
                turns += 1;
            }
            turns
        })
    };
    // Let the busy thread start taking turns.
    std::thread::sleep(Duration::from_millis(20));
    gpu.set_timeout(Duration::from_secs(1));
    let started = Instant::now();
    let mut reads = Vec::new();
    for _ in 0..5 {
        reads.push(small.read_blocking());
    }
    let took = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let turns = busy.join().expect("busy thread");
    gpu.set_timeout(shoal::DEFAULT_TIMEOUT);
    for read in reads {
        assert_eq!(read.expect("a read beside a busy thread"), [3, 4]);
    }
    assert!(turns > 0, "the busy thread took no turn");
    report(&format!(
        "5 reads beside a thread taking the turn: {took:?} ({turns} turns)"
    ));
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_wait_and_a_read_awaited_together_on_one_thread_do_not_block_it() {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};
    let (gpu, spin, v, count) = spinning();
    let n = SPIN_SIZE.1;
    let w = gpu.buffer_from(&[5u32; 3]).expect("buffer");
    let (submission, submitting) = submit_spin(&gpu, &spin, &v, &count);
    // A wait that blocked the thread would return from its first poll only when the long
    // kernel is done; one that yields returns at once (Pending, or Ready on llvmpipe, where
    // the kernel ran inside `submit`).
    let (mut a, mut b) = (Box::pin(submission.wait()), Box::pin(w.read()));
    let mut cx = Context::from_waker(Waker::noop());
    let polled = std::time::Instant::now();
    let first = a.as_mut().poll(&mut cx);
    let first_poll = polled.elapsed();
    report(&format!(
        "submit {submitting:?}; first poll of the wait {first_poll:?}, ready: {}",
        first.is_ready()
    ));
    assert!(
        first_poll < std::time::Duration::from_millis(50),
        "the first poll blocked for {first_poll:?}"
    );
    // The wait and a read awaited together on this one thread both finish.
    let (mut ra, mut rb) = (None, None);
    if let Poll::Ready(r) = first {
        ra = Some(r);
    }
    pollster::block_on(std::future::poll_fn(|cx| {
        if ra.is_none()
            && let Poll::Ready(r) = a.as_mut().poll(cx)
        {
            ra = Some(r);
        }
        if rb.is_none()
            && let Poll::Ready(r) = b.as_mut().poll(cx)
        {
            rb = Some(r);
        }
        if ra.is_some() && rb.is_some() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }));
    ra.expect("a").expect("wait");
    assert_eq!(rb.expect("b").expect("read b"), [5, 5, 5]);
    let out = v.read_blocking().expect("read");
    assert!(out.iter().all(|&x| x == spun(n)));
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn eight_threads_share_one_gpu_for_200_dispatches_and_reads_each() {
    let gpu = Gpu::blocking().expect("device");
    let add_one = gpu
        .kernel(shoal::Source::new("add_one.wgsl", ADD_ONE))
        .expect("kernel");
    let started = std::time::Instant::now();
    std::thread::scope(|s| {
        for t in 0..8u32 {
            let (gpu, add_one) = (gpu.clone(), &add_one);
            s.spawn(move || {
                let v = gpu.buffer_from(&[t; 16]).expect("buffer");
                for i in 1..=200u32 {
                    // A buffer made and dropped each turn, and every 20th turn a kernel, an
                    // image and a sampler: deleting each takes wgpu's GL lock too.
                    let scratch = gpu.buffer_zeroed::<u32>(16).expect("scratch");
                    let extra = (i % 20 == 0).then(|| {
                        let kernel = gpu.kernel(shoal::Source::new("add_one.wgsl", ADD_ONE));
                        let image = gpu.image_zeroed(8, 8, shoal::wgpu::TextureFormat::Rgba8Unorm);
                        (
                            kernel.expect("kernel"),
                            image.expect("image"),
                            gpu.sampler_linear(),
                        )
                    });
                    add_one.bind("v", &v).invocations(16).run().expect("run");
                    assert_eq!(v.read_blocking().expect("read"), [t + i; 16], "thread {t}");
                    drop((scratch, extra));
                }
            });
        }
    });
    report(&format!(
        "8 threads x 200 dispatches and reads (with kernels, images and samplers dropped): {:?}",
        started.elapsed()
    ));
}

crate::async_test! {
    async fn a_destroyed_device_fails_every_call_with_device_lost_and_a_new_gpu_recovers() {
    let gpu = Gpu::new().await.expect("device");
    let add_one = gpu.kernel(shoal::Source::new("add_one.wgsl", ADD_ONE)).expect("kernel");
    let v = gpu.buffer_from(&[1u32, 2]).expect("buffer");
    assert!(!gpu.is_lost());
    gpu.destroy();
    assert!(gpu.is_lost());
    let lost = |e: Error, call: &str| assert!(matches!(e, Error::DeviceLost { .. }), "{call}: {e}");
    lost(gpu.buffer_from(&[1u32]).expect_err("buffer"), "buffer_from");
    lost(gpu.kernel(shoal::Source::new("k.wgsl", ADD_ONE)).expect_err("kernel"), "kernel");
    lost(add_one.bind("v", &v).invocations(2).run().expect_err("run"), "run");
    lost(v.write(&[3, 4]).expect_err("write"), "write");
    lost(v.read().await.expect_err("read"), "read");
    lost(gpu.commands().submit().expect_err("submit"), "submit");
    // Recovery: a new Gpu, the resources made again, the work run again.
    let gpu = Gpu::new().await.expect("a new device");
    let add_one = gpu.kernel(shoal::Source::new("add_one.wgsl", ADD_ONE)).expect("kernel");
    let v = gpu.buffer_from(&[1u32, 2]).expect("buffer");
    add_one.bind("v", &v).invocations(2).run().expect("run");
    assert_eq!(v.read().await.expect("read"), [2, 3]);
    }
}

crate::async_test! {
    async fn an_error_only_wgpu_catches_is_blamed_on_the_call_that_caused_it() {
    // Its own device: errors are collected per device.
    let gpu = Gpu::new().await.expect("device");
    let (a, b) = (gpu.buffer_from(&[1u32, 2]).expect("a"), gpu.buffer_zeroed::<u32>(2).expect("b"));
    let mut commands = gpu.commands();
    // A copy of 3 bytes: wgpu requires multiples of 4; recorded by hand, Shoal does not check it.
    commands.encoder().copy_buffer_to_buffer(a.raw(), 0, b.raw(), 0, Some(3));
    let submitted = commands.submit();
    // Natively the submit returns it; in the browser the next await does, naming the submit.
    let e = match submitted {
        Err(e) => e,
        Ok(_) => a.read().await.expect_err("the next read reports the submit's error"),
    };
    assert!(matches!(e, Error::Wgpu { .. }), "{e}");
    assert!(e.to_string().contains("submitting commands"), "{e}");
    assert_eq!(a.read().await.expect("reported once"), [1, 2]);
    }
}

crate::async_test! {
    async fn a_gpu_from_an_applications_device_keeps_its_error_handler_called() {
    let probe = Gpu::new().await.expect("device");
    #[cfg(target_arch = "wasm32")]
    let adapter = probe.instance().expect("instance").request_adapter(&Default::default()).await.expect("adapter");
    #[cfg(not(target_arch = "wasm32"))]
    let adapter = probe.adapter().expect("adapter").clone();
    let (device, queue) = adapter.request_device(&Default::default()).await.expect("device");
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let (sink, lost_sink) = (Arc::clone(&seen), Arc::clone(&seen));
    let gpu = Gpu::from_wgpu_chained(
        &adapter,
        device,
        queue,
        Some(Arc::new(move |e: shoal::wgpu::Error| sink.lock().expect("lock").push(e.to_string()))),
        Some(Box::new(move |_, m: String| lost_sink.lock().expect("lock").push(format!("lost {m}")))),
    );
    // The application's own mistake, outside Shoal: its handler gets it, Shoal's calls do not.
    let _invalid = gpu.device().create_buffer(&shoal::wgpu::BufferDescriptor {
        label: Some("invalid usage"),
        size: 16,
        usage: shoal::wgpu::BufferUsages::MAP_READ | shoal::wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let v = gpu.buffer_from(&[7u32]).expect("buffer");
    assert_eq!(v.read().await.expect("not Shoal's error"), [7]);
    assert_eq!(seen.lock().expect("lock").len(), 1, "{:?}", seen.lock().expect("lock"));
    // Shoal's own errors stay Shoal's: returned, not handed to the application.
    let mut commands = gpu.commands();
    commands.encoder().copy_buffer_to_buffer(v.raw(), 0, v.raw(), 0, Some(3));
    let e = match commands.submit() {
        Err(e) => e,
        Ok(_) => v.read().await.expect_err("the next read reports it"),
    };
    assert!(matches!(e, Error::Wgpu { .. }), "{e}");
    assert_eq!(seen.lock().expect("lock").len(), 1);
    #[cfg(not(target_arch = "wasm32"))]
    {
        gpu.destroy();
        assert!(seen.lock().expect("lock").iter().any(|m| m.starts_with("lost")), "the app's lost callback ran");
    }
    }
}
