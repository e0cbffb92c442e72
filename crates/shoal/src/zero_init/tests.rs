//! The rewrite on naga modules alone: which variables it zeroes, how, and where it declines.
// In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
use super::*;
use crate::reflect::reflect_module;
use crate::source::{Composed, Source};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Every kind of workgroup variable, with entry points that name the local index directly
/// (`dirty`), in a struct (`clean`) or not at all (`clean_unindexed`); the conformance suite
/// runs the same file on the device.
const KINDS: &str = include_str!("../../wgsl/conformance/workgroup_zeroed.wgsl");

/// A two-dimensional work group, a variable the entry point does not use, and an entry point
/// with nothing to zero.
const SHAPES: &str = "
override WG: u32 = 64u;
var<workgroup> rows: array<u32, 3u * WG>;
var<workgroup> unused: array<u32, 100>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(WG, 2)
fn two_d(@builtin(local_invocation_index) i: u32) { out[i] = rows[i]; }
@compute @workgroup_size(WG)
fn none() { out[0] = 1u; }
";

/// An array of arrays of atomics: no one store zeroes an element.
const NESTED_ATOMICS: &str = "
var<workgroup> deep: array<array<atomic<u32>, 4>, 4>;
@compute @workgroup_size(4)
fn nested_atomics() { atomicAdd(&deep[1][2], 1u); }
";

/// Entry `entry` of `text` rewritten with `WG` = 32, or `None` where the rewrite declines.
fn rewrite(text: &str, entry: &str) -> Option<Module> {
    let composed = Composed::new(&Source::new("kinds.wgsl", text)).expect("composes");
    let constants: Vec<(String, f64)> = match text.contains("override WG") {
        true => vec![("WG".to_string(), 32.0)],
        false => Vec::new(),
    };
    let (_, resolved) = reflect_module(&composed, Some(entry), &constants).expect("reflects");
    zeroed_by_work_group(&resolved, entry)
}

fn entry<'a>(module: &'a Module, name: &str) -> &'a naga::EntryPoint {
    module
        .entry_points
        .iter()
        .find(|ep| ep.name == name)
        .expect("the entry point is in the module")
}

/// The statements the rewrite put before the entry point's own, up to the workgroup barrier
/// that closes them: (loops, ifs).
fn prologue(module: &Module, name: &str) -> (usize, usize) {
    let body: Vec<&Statement> = entry(module, name).function.body.iter().collect();
    let end = body
        .iter()
        .position(|s| matches!(s, Statement::ControlBarrier(b) if *b == naga::Barrier::WORK_GROUP))
        .expect("a workgroup barrier closes the prologue");
    let loops = body[..end]
        .iter()
        .filter(|s| matches!(s, Statement::Loop { .. }))
        .count();
    let ifs = body[..end]
        .iter()
        .filter(|s| matches!(s, Statement::If { .. }))
        .count();
    (loops, ifs)
}

#[test]
fn arrays_are_zeroed_in_loops_and_the_rest_by_invocation_zero() {
    // big, counters, grid and plains in loops; pair and flag by invocation 0.
    for name in ["dirty", "clean", "clean_unindexed"] {
        let module = rewrite(KINDS, name).expect("rewritten (and so validated)");
        assert_eq!(prologue(&module, name), (4, 2), "{name}");
    }
}

#[test]
fn the_entry_points_own_local_index_is_used_and_one_is_added_where_there_is_none() {
    for (name, arguments) in [("dirty", 2), ("clean", 1), ("clean_unindexed", 3)] {
        let module = rewrite(KINDS, name).expect("rewritten");
        let args = &entry(&module, name).function.arguments;
        assert_eq!(args.len(), arguments, "{name}");
        if name == "clean_unindexed" {
            let added = args.last().expect("an argument");
            assert_eq!(
                added.binding,
                Some(Binding::BuiltIn(BuiltIn::LocalInvocationIndex))
            );
        }
    }
}

#[test]
fn loops_step_by_the_whole_work_group_and_skip_unused_variables() {
    // 32 x 2 after the override: the loop steps by 64 over 96 elements; `unused` is left.
    let module = rewrite(SHAPES, "two_d").expect("rewritten");
    assert_eq!(prologue(&module, "two_d"), (1, 0));
    let literals: Vec<u32> = entry(&module, "two_d")
        .function
        .expressions
        .iter()
        .filter_map(|(_, e)| match e {
            Expression::Literal(Literal::U32(v)) => Some(*v),
            _ => None,
        })
        .collect();
    assert!(
        literals.contains(&64) && literals.contains(&96),
        "{literals:?}"
    );
}

#[test]
fn nothing_to_zero_or_arrays_of_atomic_arrays_are_left_to_wgpu() {
    assert!(rewrite(SHAPES, "none").is_none());
    assert!(rewrite(NESTED_ATOMICS, "nested_atomics").is_none());
}
