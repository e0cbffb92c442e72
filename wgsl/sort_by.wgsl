// Sort keys computed from elements by the user's WGSL (RadixSort::key_function): the key of
// element i, as the u32 words the sort takes. radix_sort/by_key.rs replaces the `element` block
// with the user's declarations, `Element` and `fn sort_key(e: Element) -> K`, and a `store_key`
// for the key type K (one word, or two for 64-bit keys as vec2<u32>, low word first) that binds
// the key to a `let key: K` first, so a `sort_key` of another type is a WGSL error rather than
// a sort by its raw bits (`bitcast<u32>` takes any 32-bit type).
#import shoal::fold

// #block element
alias Element = u32;
fn sort_key(e: Element) -> u32 {
    return e;
}
fn store_key(i: u32, e: Element) {
    let key: u32 = sort_key(e);
    keys[i] = bitcast<u32>(key);
}
// #end element

const WG: u32 = 64u;

// x: the element count.
@group(0) @binding(0) var<uniform> params: vec4<u32>;
@group(0) @binding(1) var<storage, read> elements: array<Element>;
@group(0) @binding(2) var<storage, read_write> keys: array<u32>;

@compute @workgroup_size(WG)
fn sort_by_keys(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let i = shoal_linear_index(wid, nwg, lid, WG);
    if i < params.x {
        store_key(i, elements[i]);
    }
}
