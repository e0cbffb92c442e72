// Append and consume buffers (the Direct3D 12 book, §13.5): an array and an atomic counter in one binding, as
// Direct3D's AppendStructuredBuffer / ConsumeStructuredBuffer. WGSL has no generics, so the
// snippet is instantiated per buffer:
//
//     #import shoal::append(lengths, f32)
//     @group(0) @binding(1) var<storage, read_write> lengths: ShoalAppend_lengths;
//
//     if !lengths_append(length(v)) { /* full: not written, but counted */ }
//     var v: vec3<f32>;
//     if vectors_consume(&v) { ... }
//
// and bound from Rust to a `shoal::AppendBuffer<T>`. Its header is the counter and the capacity;
// the items start at byte 16 whatever their alignment, so the host knows where they are.
//
// params: SHOAL_NAME SHOAL_ITEM
// Lines ending in `// example` only make this file valid WGSL on its own (for check-wgsl); an
// instantiation blanks them.

alias SHOAL_ITEM = u32; // example
@group(0) @binding(0) var<storage, read_write> SHOAL_NAME: ShoalAppend_SHOAL_NAME; // example

struct ShoalAppend_SHOAL_NAME {
    // Appends attempted minus consumes that found an item. Above `capacity` after an overflow:
    // the host reports the attempted count and that the excess was dropped.
    count: atomic<i32>,
    // Written by the host: the capacity (arrayLength(&items) is one more for a capacity of 0,
    // WGSL arrays never being empty).
    capacity: u32,
    // Explicit padding, not @align(16): naga's GLSL output ignores @align on a runtime array, and
    // the items must start at byte 16 on every backend.
    _pad0: u32,
    _pad1: u32,
    items: array<SHOAL_ITEM>,
}

// Appends `shoal_value`. Returns false, writing nothing, when the buffer is full; the attempt is
// still counted, so an overflow is never silent. (Parameters and locals are named `shoal_*` so
// that none hides the buffer: buffers called `out`, `value` or `slot` are common.)
fn SHOAL_NAME_append(shoal_value: SHOAL_ITEM) -> bool {
    let shoal_slot = atomicAdd(&SHOAL_NAME.count, 1);
    if shoal_slot < 0 || u32(shoal_slot) >= SHOAL_NAME_capacity() {
        return false;
    }
    SHOAL_NAME.items[shoal_slot] = shoal_value;
    return true;
}

// Takes one item (the last appended, as Direct3D's Consume) into `*shoal_out`. Returns false
// when the buffer is empty; the counter is then given back, so it never stays below zero.
fn SHOAL_NAME_consume(shoal_out: ptr<function, SHOAL_ITEM>) -> bool {
    let shoal_before = atomicSub(&SHOAL_NAME.count, 1);
    if shoal_before <= 0 {
        atomicAdd(&SHOAL_NAME.count, 1);
        return false;
    }
    let shoal_slot = u32(shoal_before - 1);
    if shoal_slot >= SHOAL_NAME_capacity() {
        // Past the capacity after an overflow: that item was never written.
        return false;
    }
    *shoal_out = SHOAL_NAME.items[shoal_slot];
    return true;
}

// Items held now, at most the capacity (meaningful between dispatches, not while others append).
fn SHOAL_NAME_count() -> u32 {
    return min(u32(max(atomicLoad(&SHOAL_NAME.count), 0)), SHOAL_NAME_capacity());
}

// Items it can hold: the host's capacity word, within the binding.
fn SHOAL_NAME_capacity() -> u32 {
    return min(SHOAL_NAME.capacity, arrayLength(&SHOAL_NAME.items));
}
