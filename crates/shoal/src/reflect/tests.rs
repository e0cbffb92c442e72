//! Reflection of small kernels: sizes after overrides, shapes, kinds, features and errors.
// In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
use super::*;
use crate::source::Source;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

fn reflect_str(text: &str, constants: &[(String, f64)]) -> Result<Reflection, ReflectError> {
    let composed = Composed::new(&Source::new("test.wgsl", text)).expect("composes");
    reflect(&composed, None, constants)
}

/// An `override` declared after the arrays and work-group size that use it is applied. (naga
/// 30 panics applying overrides to some such modules — `check-wgsl` met one with the radix
/// sort's snippet — and Shoal turns that panic into this typed error where panics unwind; this
/// module does not make naga panic, so it checks the reflection or that error.)
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn an_override_declared_after_its_use_is_a_typed_error() {
    let text = "var<workgroup> counts: array<atomic<u32>, 16>;
         var<workgroup> sh: array<u32, 2u * WG>;
         @group(0) @binding(0) var<storage, read_write> out: array<u32>;
         @compute @workgroup_size(WG) fn count(@builtin(local_invocation_index) i: u32) {
             atomicAdd(&counts[i % 16u], 1u); workgroupBarrier(); out[i] = atomicLoad(&counts[0]);
         }
         @compute @workgroup_size(WG) fn scan(@builtin(local_invocation_index) i: u32) {
             sh[i] = i; workgroupBarrier(); out[i] = sh[0];
         }
         override WG: u32 = 64u;";
    let composed = Composed::new(&Source::new("test.wgsl", text)).expect("composes");
    match reflect(&composed, Some("count"), &[]) {
        Err(ReflectError::Override(m)) => assert!(m.contains("declare overrides first"), "{m}"),
        // A naga that handles it must reflect it correctly.
        Ok(r) => assert_eq!(r.workgroup_size, [64, 1, 1]),
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn reflects_bindings_workgroup_size_and_memory() {
    let r = reflect_str(
        "struct Data { v1: vec3<f32>, v2: vec2<f32> }
         @group(0) @binding(0) var<storage, read> a: array<Data>;
         @group(0) @binding(1) var<storage, read_write> out: array<u32>;
         @group(1) @binding(0) var<uniform> n: u32;
         override WG: u32 = 64;
         var<workgroup> tile: array<f32, WG>;
         @compute @workgroup_size(WG) fn main(@builtin(local_invocation_index) i: u32) {
             tile[i] = a[i].v1.x; workgroupBarrier(); out[i] = u32(tile[0]) + n;
         }",
        &[("WG".into(), 128.0)],
    )
    .expect("reflects");
    assert_eq!(r.workgroup_size, [128, 1, 1]);
    assert_eq!(r.workgroup_memory, 512);
    let names: Vec<_> = r.bindings.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["a", "out", "n"]);
    let a = r.bindings[0].shape.as_ref().expect("buffer");
    assert_eq!(a.runtime_array, Some(("Data".to_string(), 32)));
    assert!(a.has_vec3);
    assert_eq!(r.bindings[1].kind, BindingKind::Storage { writable: true });
    assert_eq!(r.bindings[2].shape.as_ref().map(|s| s.fixed), Some(4));
}

#[test]
fn parse_error_names_file_line_and_column() {
    let err = reflect_str("\n\nfn main( { }\n", &[]).expect_err("bad wgsl");
    let ReflectError::Wgsl(msg) = err else {
        panic!("wrong error {err:?}")
    };
    assert!(msg.contains("test.wgsl:3:"), "{msg}");
    assert!(msg.contains("fn main( { }"), "{msg}");
}

/// An override that makes the entry point invalid (a work group of 10^9 invocations) is an
/// `Override` error carrying naga's causes, not only its summary.
#[test]
fn an_override_that_breaks_the_entry_point_says_why() {
    let text = "override WG: u32 = 64u;
         @group(0) @binding(0) var<storage, read_write> out: array<u32>;
         @compute @workgroup_size(WG) fn main(@builtin(local_invocation_index) i: u32) { out[i] = i; }";
    let composed = Composed::new(&Source::new("wide.wgsl", text)).expect("composes");
    match reflect(&composed, Some("main"), &[("WG".into(), 1e9)]) {
        Err(ReflectError::Override(m)) => {
            assert!(m.contains("Entry point main"), "{m}");
            assert!(
                m.len() > "Entry point main at Compute is invalid".len() + 10,
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
}
