//! `Buffer::slice`: part of a buffer as a buffer of its own. A kernel bound to a slice sees its
//! elements alone (`arrayLength`, and no write outside it); reads, writes, copies, clears and
//! indirect arguments land at its offset; the slices refused (past the end, not on a word, bound
//! off the device's alignment, copied onto another slice of their buffer) are typed errors.

use shoal::{Error, Gpu, Usage};

use crate::gpu_test;

/// Adds `arrayLength(&data)` to every element: what the kernel sees of the slice bound.
const ADD_LEN: &str = "
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn add_len(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = arrayLength(&data);
    if id.x < n { data[id.x] += n; }
}";

/// Writes the dispatch's group counts, as `100x + 10y + z`, into the one element of `out`.
const MARK: &str = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn mark(@builtin(num_workgroups) g: vec3<u32>) { out[0] = 100u * g.x + 10u * g.y + g.z; }";

/// Writes the uniform's first word into `out`.
const UNIFORM: &str = "
@group(0) @binding(0) var<uniform> p: vec4<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn copy_uniform() { out[0] = p.x; }";

/// The alignment slices are bound at (`Limits::slice_alignment`), in `u32` elements.
fn aligned(gpu: &Gpu) -> u64 {
    gpu.limits().slice_alignment(false) as u64 / 4
}

gpu_test! {
    /// A kernel bound to a slice at the device's alignment changes that slice alone and sees its
    /// length; reading the slice, a range of it and the whole buffer agree.
    async fn a_kernel_sees_its_slice_alone(gpu) {
        let a = aligned(&gpu);
        let n = 3 * a + 5;
        let buffer = gpu.buffer_from(&(0..n as u32).collect::<Vec<_>>()).expect("buffer");
        let slice = buffer.slice(a..2 * a + 3).expect("slice");
        assert_eq!((slice.len(), slice.offset()), (a + 3, 4 * a));
        let kernel = gpu.kernel(shoal::Source::new("add_len.wgsl", ADD_LEN)).expect("kernel");
        kernel.bind("data", &slice).invocations(slice.len()).run().expect("dispatch");
        let want: Vec<u32> = (0..n as u32)
            .map(|i| if (a..2 * a + 3).contains(&(i as u64)) { i + a as u32 + 3 } else { i })
            .collect();
        assert_eq!(buffer.read().await.expect("read"), want);
        assert_eq!(slice.read().await.expect("slice"), want[a as usize..2 * a as usize + 3]);
        assert_eq!(slice.read_range(1..3).await.expect("range"), want[a as usize + 1..a as usize + 3]);
        // A slice of a slice is a slice of the buffer; a view of a slice keeps its offset.
        let inner = slice.slice(a..).expect("inner");
        assert_eq!((inner.offset(), inner.len()), (8 * a, 3));
        assert_eq!(inner.read().await.expect("inner"), want[2 * a as usize..2 * a as usize + 3]);
        let bytes = slice.view_as::<[u32; 1]>();
        assert_eq!(bytes.offset(), slice.offset());
        assert_eq!(bytes.read().await.expect("view")[0], [want[a as usize]]);
    }

    /// Writes, in-batch writes, copies and clears of a slice land at its offset and nowhere else.
    async fn transfers_land_at_the_slice(gpu) {
        let buffer = gpu.buffer_from(&[1u32; 12]).expect("buffer");
        let middle = buffer.slice(4..8).expect("slice");
        middle.write_at(1, &[20, 30]).expect("write");
        let mut commands = gpu.commands();
        commands.write_at(&middle, 3, &[40]).expect("recorded write");
        commands.submit().expect("submit");
        assert_eq!(buffer.read().await.expect("read"), [1, 1, 1, 1, 1, 20, 30, 40, 1, 1, 1, 1]);
        let other = gpu.buffer_from(&[9u32; 6]).expect("other");
        let tail = other.slice(2..).expect("tail");
        tail.copy_from(&middle).expect("copy");
        assert_eq!(other.read().await.expect("other"), [9, 9, 1, 20, 30, 40]);
        let mut commands = gpu.commands();
        commands.clear(&middle);
        commands.submit().expect("clear");
        assert_eq!(buffer.read().await.expect("cleared"), [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1]);
        // A slice's write out of its range is refused, not written into its neighbours.
        let e = middle.write_at(3, &[5, 6]).expect_err("past the slice");
        assert!(matches!(e, Error::Length { .. }), "{e}");
        // Two-byte elements: a slice to the end of a buffer Shoal made owns its last word's
        // padding, so its last element is written, copied into and cleared like the buffer's.
        let halves = gpu.buffer_from(&[Half(1); 7]).expect("halves");
        let tail = halves.slice(2..).expect("tail");
        tail.write_at(4, &[Half(9)]).expect("the last element");
        let mut commands = gpu.commands();
        commands.write_at(&tail, 2, &[Half(8), Half(7)]).expect("recorded");
        commands.submit().expect("submit");
        assert_eq!(halves.read().await.expect("halves"), [1, 1, 1, 1, 8, 7, 9].map(Half));
        tail.copy_from(&gpu.buffer_from(&[Half(2); 5]).expect("twos")).expect("copy");
        assert_eq!(halves.read().await.expect("copied"), [1, 1, 2, 2, 2, 2, 2].map(Half));
        // A view whose last element ends inside a word of another element: copies into it and
        // clears of it are refused (wgpu moves whole words), not done over the neighbour.
        let words = gpu.buffer_from(&[5u32; 5]).expect("words");
        let sixes = words.view_as::<Six>();
        assert_eq!(sixes.len(), 3);
        let mut commands = gpu.commands();
        commands.clear(&sixes);
        let e = commands.submit().expect_err("a partial word");
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        let e = sixes.copy_from(&gpu.buffer_zeroed::<Six>(3).expect("zeros")).expect_err("a partial word");
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        assert_eq!(words.read().await.expect("words"), [5; 5]);
    }

    /// One kernel bound to one slice, then another of the same buffer, then the buffer: each
    /// dispatch changes what it was given (the bind groups cached for one are not the next's).
    async fn slices_one_after_another(gpu) {
        let a = aligned(&gpu);
        let buffer = gpu.buffer_zeroed::<u32>(3 * a).expect("buffer");
        let kernel = gpu.kernel(shoal::Source::new("add_len.wgsl", ADD_LEN)).expect("kernel");
        for range in [0..a, a..3 * a, 0..a] {
            let slice = buffer.slice(range).expect("slice");
            kernel.bind("data", &slice).invocations(slice.len()).run().expect("dispatch");
        }
        kernel.bind("data", &buffer).invocations(3 * a).run().expect("whole");
        // The first a elements: a twice, then 3a; the others: 2a, then 3a. A bind group of the
        // first slice served for the second would leave them at 6a and 3a.
        assert_eq!(buffer.read().await.expect("read"), vec![5 * a as u32; 3 * a as usize]);
    }

    /// Indirect arguments taken from a slice: the offset given is within the slice.
    async fn indirect_arguments_from_a_slice(gpu) {
        let args = gpu.buffer_from_with(&[5u32, 5, 5, 1, 1, 1], Usage::STORAGE | Usage::INDIRECT).expect("args");
        let out = gpu.buffer_zeroed::<u32>(1).expect("out");
        let kernel = gpu.kernel(shoal::Source::new("mark.wgsl", MARK)).expect("kernel");
        let slice = args.slice(3..).expect("slice");
        kernel.bind("out", &out).indirect(&slice, 0).run().expect("dispatch");
        assert_eq!(out.read().await.expect("out"), [111], "the slice's arguments, not the buffer's");
        let e = kernel.bind("out", &out).indirect(&slice, 4).run().expect_err("past the slice");
        assert!(matches!(e, Error::IndirectOutOfBounds { .. }), "{e}");
    }

    /// The slices refused: past the end, off a word, bound off the device's alignment, copied
    /// onto another slice of their buffer; a slice bound beside its buffer.
    async fn slices_refused(gpu) {
        let buffer = gpu.buffer_from(&[0u32; 8]).expect("buffer");
        for range in [2..9, 9..9] {
            let e = buffer.slice(range.clone()).expect_err("past the end");
            assert!(matches!(e, Error::Length { .. }), "{range:?}: {e}");
        }
        assert!(matches!(buffer.slice(5..=u64::MAX), Err(Error::Length { .. })));
        let halves = gpu.buffer_from(&[Half(1); 7]).expect("halves");
        for range in [1..4, 0..3] {
            let e = halves.slice(range.clone()).expect_err("off a word");
            assert!(matches!(e, Error::InvalidParameter { .. }), "{range:?}: {e}");
            assert!(e.to_string().contains("multiple of 4"), "{e}");
        }
        assert_eq!(halves.slice(2..).expect("to the end").len(), 5);
        let kernel = gpu.kernel(shoal::Source::new("add_len.wgsl", ADD_LEN)).expect("kernel");
        let off = buffer.slice(1..).expect("slice");
        let got = kernel.bind("data", &off).invocations(7).run();
        let e = got.expect_err("off the alignment");
        let text = e.to_string();
        assert!(matches!(e, Error::InvalidParameter { .. }) && text.contains("`data`") && text.contains("min_storage_buffer_offset_alignment"), "{text}");
        // An empty slice binds nothing, which wgpu would take for the rest of the buffer: a
        // dispatch that launches is refused, one of no work groups runs nothing.
        let big = gpu.buffer_zeroed::<u32>(3 * aligned(&gpu).max(1)).expect("big");
        let empty = big.slice(aligned(&gpu).max(1)..aligned(&gpu).max(1)).expect("empty");
        let e = kernel.bind("data", &empty).invocations(1).run().expect_err("empty");
        assert!(matches!(e, Error::BufferTooSmall { .. }), "{e}");
        kernel.bind("data", &empty).invocations(0).run().expect("no work groups");
        assert_eq!(big.read().await.expect("big"), vec![0; big.len() as usize]);
        // A uniform slice is held to the uniform alignment.
        let uniforms = gpu.buffer_zeroed_with::<shoal::glam::UVec4>(2, Usage::UNIFORM).expect("uniforms");
        let copy = gpu.kernel(shoal::Source::new("uniform.wgsl", UNIFORM)).expect("kernel");
        let out = gpu.buffer_zeroed::<u32>(1).expect("out");
        let e = copy.bind("p", &uniforms.slice(1..).expect("slice")).bind("out", &out).invocations(1).run().expect_err("off the alignment");
        assert!(e.to_string().contains("min_uniform_buffer_offset_alignment"), "{e}");
        let (first, second) = (buffer.slice(0..4).expect("first"), buffer.slice(4..).expect("second"));
        let e = first.copy_from(&second).expect_err("one buffer");
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        first.copy_from(&buffer.slice(0..4).expect("same")).expect("a slice onto itself is already copied");
        let two = gpu.kernel(shoal::Source::new("two.wgsl", TWO)).expect("two");
        let big = gpu.buffer_zeroed::<u32>(2 * aligned(&gpu).max(1)).expect("big");
        let upper = big.slice(aligned(&gpu).max(1)..).expect("upper");
        let e = two.bind("a", &big).bind("b", &upper).invocations(1).run().expect_err("aliasing");
        assert!(matches!(e, Error::Aliasing { .. }), "{e}");
    }
}

/// Reads `a`, writes `b`.
const TWO: &str = "
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(1)
fn two() { b[0] = a[0]; }";

/// A 6-byte element: three of them end inside a word.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
struct Six([u16; 3]);
shoal::pod_element!(Six);

/// A 2-byte element.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
struct Half(u16);
shoal::pod_element!(Half);

/// A custom `Bindable` that binds one of two wgpu buffers under one identity (an application's
/// buffer it re-allocates, say).
struct Swapped {
    id: shoal::ResourceId,
    raws: [shoal::wgpu::Buffer; 2],
    which: usize,
}

impl shoal::Bindable for Swapped {
    fn resource(&self) -> shoal::Resource<'_> {
        shoal::Resource::Buffer(shoal::BufferResource::new::<u32>(
            &self.id,
            &self.raws[self.which],
            4,
        ))
    }
}

gpu_test! {
    /// The bind-group cache keys on the wgpu object bound as well as the identity: a custom
    /// `Bindable` that binds another buffer under the same identity gets a bind group of its
    /// own, not the one cached for the first (which wrote the first buffer again).
    async fn a_custom_bindable_rebound_to_another_buffer_is_not_served_from_the_cache(gpu) {
        let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
            @compute @workgroup_size(1) fn mark() { out[0] += 1u; }";
        let k = gpu.kernel(shoal::Source::new("mark.wgsl", src)).expect("kernel");
        let raw = || gpu.device().create_buffer(&shoal::wgpu::BufferDescriptor {
            label: Some("swapped"),
            size: 4,
            usage: shoal::wgpu::BufferUsages::STORAGE | shoal::wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut swapped = Swapped { id: gpu.resource_id(), raws: [raw(), raw()], which: 0 };
        k.bind("out", &swapped).groups([1, 1, 1]).run().expect("first");
        swapped.which = 1;
        k.bind("out", &swapped).groups([1, 1, 1]).run().expect("second");
        for (i, raw) in swapped.raws.iter().enumerate() {
            let b = shoal::Buffer::<u32>::from_raw(&gpu, raw.clone(), 1).expect("wrap");
            assert_eq!(b.read().await.expect("read"), [1], "buffer {i}");
        }
    }
}
