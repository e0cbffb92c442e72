//! Robustness (issue 15): the inputs the property tests found, kept as plain tests that name
//! them, and out-of-bounds writes that must not reach a neighbouring buffer. Every one runs on
//! each native adapter and in the browser.

use shoal::{Error, Source, wgpu::TextureFormat};

use crate::gpu_test;

fn names(e: &Error, parts: &[&str]) {
    let message = e.to_string();
    for part in parts {
        assert!(message.contains(part), "`{message}` should name `{part}`");
    }
}

gpu_test! {
    /// `u64::MAX / 4 + 1` u32s are `2^64` bytes: unchecked, the product wraps to 0 in release
    /// (an empty buffer) and panics in debug.
    async fn a_buffer_whose_byte_count_wraps_u64_is_resource_too_large(gpu) {
    let limit = gpu.limits().max_buffer_size;
    for len in [u64::MAX / 4 + 1, u64::MAX, limit / 4 + 1] {
        let e = gpu.buffer_zeroed::<u32>(len).expect_err("too large");
        assert!(matches!(e, Error::ResourceTooLarge { bytes, limit: l, .. } if bytes == len as u128 * 4 && l == limit), "{e}");
        names(&e, &["max_buffer_size", &limit.to_string(), &(len as u128 * 4).to_string()]);
    }
    }

    /// An append buffer above the storage-binding limit was `Error::Wgpu`; one whose byte count
    /// wraps panicked in debug.
    async fn an_append_buffer_above_the_binding_limit_is_resource_too_large(gpu) {
    let limits = gpu.limits();
    let limit = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
    for capacity in [(limit - 16) / 4 + 1, u64::MAX / 4, u64::MAX] {
        let e = gpu.append_buffer::<u32>(capacity).expect_err("too large");
        assert!(matches!(e, Error::ResourceTooLarge { limit: l, .. } if l == limit), "{e}");
        names(&e, &["AppendBuffer<u32>", &capacity.to_string(), &limit.to_string()]);
    }
    let fits = gpu.append_buffer::<u32>(0).expect("capacity 0");
    assert_eq!(fits.read().await.expect("empty"), Vec::<u32>::new());
    }

    /// `write_at(u64::MAX, [1])`: `first + len` wrapped past the length check.
    async fn a_write_at_an_offset_near_u64_max_is_a_length_error(gpu) {
    let b = gpu.buffer_zeroed::<u32>(4).expect("buffer");
    for first in [u64::MAX, u64::MAX - 1, 5] {
        let e = b.write_at(first, &[1]).expect_err("past the end");
        assert!(matches!(e, Error::Length { .. }), "{e}");
    }
    let e = b.read_range(3..u64::MAX).await.expect_err("past the end");
    assert!(matches!(e, Error::Length { .. }), "{e}");
    }

    /// `@group(4294967295)`: Shoal made a layout for every group up to it (a 16 GiB Vec, aborting
    /// the process); `@binding(1000)` reached wgpu.
    async fn group_and_binding_numbers_above_the_limits_are_binding_number_errors(gpu) {
    let at_limit = format!("@group({}) @binding(0)", gpu.limits().max_bind_groups);
    // GL reports a large max_bindings_per_bind_group: the binding at the device's own value.
    let binding_at_limit = format!("@group(0) @binding({}u)", gpu.device().limits().max_bindings_per_bind_group);
    let cases = [("@group(4294967295u) @binding(0)", "max_bind_groups"), (at_limit.as_str(), "max_bind_groups"), (binding_at_limit.as_str(), "max_bindings_per_bind_group")];
    for (decl, limit_name) in cases {
        let text = format!("{decl} var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(1) fn main() {{ out[0] = 1u; }}");
        let e = gpu.kernel(Source::new("numbers.wgsl", text)).expect_err("refused");
        assert!(matches!(e, Error::BindingNumber { .. }), "{decl}: {e}");
        names(&e, &["numbers.wgsl:main", "`out`", limit_name]);
    }
    }

    /// One binding of a kind more than one shader stage may use on this device: a typed error
    /// naming the limit at kernel creation (it was wgpu's, from the layout).
    async fn more_bindings_of_a_kind_than_a_stage_allows_is_too_many_bindings(gpu) {
    let limits = gpu.device().limits();
    for (limit, kind, declare, read) in [
        (limits.max_storage_buffers_per_shader_stage, "storage buffers", "var<storage, read> b{i}: array<u32>", "b{i}[0]"),
        (limits.max_uniform_buffers_per_shader_stage, "uniform buffers", "var<uniform> b{i}: vec4<u32>", "b{i}.x"),
    ] {
        let n = limit + 1;
        let (mut text, mut sum) = (String::new(), String::from("0u"));
        for i in 0..n {
            text += &format!("@group(0) @binding({i}) {};\n", declare.replace("{i}", &i.to_string()));
            sum += &format!(" + {}", read.replace("{i}", &i.to_string()));
        }
        text += &format!("var<workgroup> total: u32;\n@compute @workgroup_size(1) fn main() {{ total = {sum}; }}");
        let e = gpu.kernel(Source::new("many.wgsl", text)).expect_err("refused");
        assert!(matches!(e, Error::TooManyBindings { count, .. } if count == n), "{kind}: {e}");
        names(&e, &["many.wgsl:main", kind, &n.to_string(), &limit.to_string()]);
    }
    }

    /// The loop budget `Gpu::loop_iteration_budget` reports is the adapter's: on llvmpipe one
    /// invocation's loops stop, silently, after 65,535 iterations in all (two loops of 40,000
    /// share it); elsewhere (SwiftShader, GPUs) every loop runs to its end. If Mesa lifts the
    /// limit this fails, and the budget (and what Shoal's kernels plan around it) can go.
    async fn the_loop_budget_is_what_the_adapter_does(gpu) {
    let k = gpu.kernel(Source::new("loops.wgsl", "@group(0) @binding(0) var<storage, read_write> v: array<u32>;
        @compute @workgroup_size(1) fn main() {
            var a = 0u; var b = 0u;
            for (var i = 0u; i < v[0]; i++) { a += 1u; }
            for (var i = 0u; i < v[1]; i++) { b += 1u; }
            v[2] = a; v[3] = b;
        }")).expect("kernel");
    let run = |x: u32, y: u32| {
        let v = gpu.buffer_from(&[x, y, 0, 0]).expect("buffer");
        k.bind("v", &v).groups([1, 1, 1]).run().expect("run");
        v
    };
    let (one, two) = (run(70_000, 0), run(40_000, 40_000));
    let (one, two) = (one.read().await.expect("read"), two.read().await.expect("read"));
    match gpu.loop_iteration_budget() {
        Some(budget) => {
            assert_eq!(budget, shoal::LLVMPIPE_LOOP_ITERATIONS);
            assert_eq!(one[2], budget, "one loop stops at the budget");
            assert_eq!(two[2], 40_000, "the first loop fits");
            assert!(two[3] < 40_000 && two[2] + two[3] <= budget, "the second gets what is left: {two:?}");
        }
        None => {
            assert_eq!(one[2], 70_000);
            assert_eq!(two[2..], [40_000, 40_000]);
        }
    }
    }

    /// A compressed format the device was not created with (and a size that is not a multiple
    /// of its blocks) reached wgpu's validation as `Error::Wgpu`.
    async fn an_image_of_a_format_the_device_lacks_is_invalid_parameter(gpu) {
    for (format, size) in [(TextureFormat::Bc1RgbaUnorm, 1), (TextureFormat::Bc1RgbaUnorm, 4), (TextureFormat::Etc2Rgb8Unorm, 4)] {
        if gpu.features().contains(format.required_features()) {
            continue;
        }
        let e = gpu.image_zeroed(size, size, format).expect_err("refused");
        assert!(matches!(e, Error::InvalidParameter { .. } | Error::ImageUsage { .. }), "{format:?}: {e}");
    }
    }

    /// `@workgroup_size(16384, 16384, 16384)` (naga's largest per dimension): 2^42 invocations,
    /// and naming them multiplied past `u32::MAX` (a panic in debug). Larger sizes are naga's
    /// `Error::Wgsl`.
    async fn a_work_group_whose_invocations_overflow_u32_is_refused(gpu) {
    let text = "@compute @workgroup_size(16384, 16384, 16384) fn main() {}";
    let e = gpu.kernel(Source::new("huge.wgsl", text)).expect_err("refused");
    assert!(matches!(e, Error::WorkgroupTooLarge { invocations: u32::MAX, .. }), "{e}");
    let text = "@compute @workgroup_size(4294967295u, 2u) fn main() {}";
    let e = gpu.kernel(Source::new("huger.wgsl", text)).expect_err("refused");
    assert!(matches!(e, Error::Wgsl { .. }), "{e}");
    }
}

/// Writes far past the end of `small` (a runtime-sized array) and of `fixed` (an `array<u32, 4>`):
/// each invocation writes at `base + id * step`, values from a buffer so no compiler can see
/// the indices.
const SCRIBBLE: &str = "
@group(0) @binding(0) var<storage, read_write> small: array<u32>;
@group(0) @binding(1) var<storage, read_write> fixed: array<u32, 4>;
@group(0) @binding(2) var<storage, read> at: array<u32>;
@compute @workgroup_size(64)
fn scribble(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = at[0] + id.x * at[1];
    small[i] = 0xdeadbeefu;
    fixed[i] = 0xdeadbeefu;
    small[i - 8u] = 0xdeadbeefu;
}";

gpu_test! {
    /// Out-of-bounds writes never change a neighbouring buffer: wgpu and naga clamp or drop
    /// them (robust buffer access), on every backend. The neighbours are made right before and
    /// after the written buffers, so an unchecked write would land in them first.
    async fn out_of_bounds_writes_never_change_a_neighbouring_buffer(gpu) {
    let k = gpu.kernel(Source::new("scribble.wgsl", SCRIBBLE)).expect("kernel");
    let pattern: Vec<u32> = (0..4096u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    for (base, step) in [(4u32, 1u32), (16, 4), (1024, 1), (1 << 20, 4096), (u32::MAX - 64, 1), (0, 1 << 26)] {
        let before = gpu.buffer_from(&pattern).expect("neighbour before");
        let small = gpu.buffer_zeroed::<u32>(4).expect("small");
        let fixed = gpu.buffer_zeroed::<u32>(4).expect("fixed");
        let after = gpu.buffer_from(&pattern).expect("neighbour after");
        let at = gpu.buffer_from(&[base, step]).expect("indices");
        k.bind("small", &small).bind("fixed", &fixed).bind("at", &at).groups([4, 1, 1]).run().expect("dispatch");
        for (name, b) in [("before", &before), ("after", &after)] {
            let got = b.read().await.expect("read");
            let changed = got.iter().zip(&pattern).filter(|(g, p)| g != p).count();
            assert_eq!(changed, 0, "base {base}, step {step}: {changed} words of the neighbour {name} changed");
        }
    }
    }
}
