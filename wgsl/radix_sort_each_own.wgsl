// The loop of radix_sort_lanes.wgsl over an invocation's keys, written once for its six (the
// counting kernel's over keys and over items, and the four scatters'): invocation `id`'s keys or
// items `own` (start and end), a vec4 at a time through `EACH_VEC` (`PER_VEC` keys or items each,
// two vec4s per iteration: a software adapter pays for each iteration of a loop about what it
// pays for a load, faster with two on SwiftShader and for pairs on lavapipe), then the ones after
// the last whole vec4 through `EACH_TAIL` (a loop over key words; an `if` for the one odd item,
// since a loop there, in the branch a sort of keys does not take, measured slower for keys on
// lavapipe):
//
//     #import radix_sort::each_own(place_keys_own, 4u, place_keys4, place_keys_tail)
//
// WGSL has no function parameters, and a body chosen by a switch would branch per vec4 in every
// kernel: hence an instantiation per body.
//
// params: OWN_FN PER_VEC EACH_VEC EACH_TAIL
// It relies on radix_sort_lanes.wgsl's definitions, so it is validated where imported.

fn OWN_FN(own: vec2<u32>, id: u32) {
    var q = own.x / PER_VEC;
    for (; q + 2u <= own.y / PER_VEC; q += 2u) {
        EACH_VEC(q, id);
        EACH_VEC(q + 1u, id);
    }
    if q < own.y / PER_VEC {
        EACH_VEC(q, id);
    }
    EACH_TAIL(own, id);
}
