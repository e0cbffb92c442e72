//! A kernel's append binding (`#import shoal::append`) takes an `AppendBuffer` only: a plain
//! buffer there used to be accepted, and the kernel then took its first words for the count and
//! capacity, so its appends wrote nothing the host read.

use shoal::Error;

use crate::gpu_test;

const EVENS: &str = "#import shoal::append(evens, u32)
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> evens: ShoalAppend_evens;
@compute @workgroup_size(64)
fn keep_evens(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&values) && values[id.x] % 2u == 0u { _ = evens_append(values[id.x]); }
}";

gpu_test! {
    async fn a_plain_buffer_bound_to_an_append_binding_is_refused(gpu) {
    let k = gpu.kernel(shoal::Source::new("evens.wgsl", EVENS)).expect("kernel");
    let values = gpu.buffer_from(&[1u32, 2, 3, 4]).expect("values");
    let plain = gpu.buffer_zeroed::<u32>(8).expect("a plain buffer");
    let e = k.bind("values", &values).bind("evens", &plain).invocations(4).run().expect_err("plain");
    assert!(matches!(&e, Error::BindingKind { binding, .. } if binding == "evens"), "{e:?}");
    let message = e.to_string();
    for word in ["evens.wgsl:keep_evens", "`evens`", "ShoalAppend_evens", "plain `Buffer<u32>`", "gpu.append_buffer::<u32>(capacity)"] {
        assert!(message.contains(word), "`{message}` should say `{word}`");
    }
    // The append buffer it asks for keeps every even value, whatever the size.
    for n in [0u32, 1, 2, 63, 64, 65, 1000] {
        let input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761) >> 7).collect();
        let values = gpu.buffer_from(&input).expect("values");
        let evens = gpu.append_buffer::<u32>(n as u64).expect("append buffer");
        if n > 0 {
            k.bind("values", &values).bind("evens", &evens).invocations(n as u64).run().expect("run");
        }
        let mut got = evens.read().await.expect("read");
        got.sort_unstable();
        let mut want: Vec<u32> = input.into_iter().filter(|v| v % 2 == 0).collect();
        want.sort_unstable();
        assert_eq!(got, want, "{n} values");
    }
    }
}
