//! Bindings and overrides are named in the WGSL by their GLSL names, aliased or refused.

use super::refused::refusal;
use crate::{Error, Options, to_wgsl, translate};

/// The bound variables' and overrides' names in `wgsl`, as Shoal's reflection sees them.
fn wgsl_names(wgsl: &str) -> (Vec<String>, Vec<String>) {
    let module = super::valid_wgsl("k.comp", wgsl);
    let globals = module
        .global_variables
        .iter()
        .filter(|(_, v)| v.binding.is_some())
        .filter_map(|(_, v)| v.name.clone())
        .collect();
    let overrides = module
        .overrides
        .iter()
        .filter_map(|(_, o)| o.name.clone())
        .collect();
    (globals, overrides)
}

fn assert_names(text: &str, globals: &[&str], overrides: &[&str]) {
    let wgsl = to_wgsl("k.comp", text).unwrap_or_else(|e| panic!("{e}"));
    let (mut got_globals, mut got_overrides) = wgsl_names(&wgsl);
    got_globals.sort();
    got_overrides.sort();
    let mut globals = globals.to_vec();
    let mut overrides = overrides.to_vec();
    globals.sort();
    overrides.sort();
    assert_eq!(got_globals, globals, "{wgsl}");
    assert_eq!(got_overrides, overrides, "{wgsl}");
}

/// Names WGSL predeclares (a built-in function, an access mode) are free to declare where the
/// kernel does not use them.
#[test]
fn predeclared_names_are_kept() {
    let text = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint read[]; };
layout(std430, binding = 1) buffer C { uint select[]; };
layout(std430, binding = 2) buffer D { uint total; } min;
layout(binding = 3, rgba32f) uniform writeonly image2D distance;
void main() {
    read[0] = select[0] + min.total;
    imageStore(distance, ivec2(0), vec4(1.0));
}
";
    assert_names(text, &["read", "select", "min", "distance"], &[]);
}

/// A parameter or local named like a binding no longer takes the name from it.
#[test]
fn bindings_keep_names_a_parameter_or_local_also_has() {
    let text = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint count[]; };
layout(std430, binding = 1) buffer C { uint total; } sums;
uint f(uint count) { uint sums = count + 1u; return sums; }
void main() { count[0] = f(2u); sums.total = 1u; }
";
    assert_names(text, &["count", "sums"], &[]);
}

/// Names ending in a digit, bindings and overrides alike.
#[test]
fn names_ending_in_digits_are_kept() {
    let text = "#version 450
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint K1 = 4;
layout(constant_id = 1) const uint select = 2;
layout(std430, binding = 0) buffer B { uint values2[]; };
void main() { values2[0] = K1; values2[1] = select; }
";
    assert_names(text, &["values2"], &["K1", "select"]);
}

/// A binding named by a word WGSL reserves is `name_` in the WGSL, listed among the aliases;
/// a `constant_id` constant so named (set by its WGSL name) is refused, naming the word and its
/// line.
#[test]
fn reserved_binding_names_are_aliased_and_reserved_constants_refused() {
    let text = "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { uint target[]; };\nlayout(std430, binding = 1) buffer C { uint target_[]; };\nvoid main() { target[0] = target_[0]; }\n";
    let translation = translate("k.comp", text, &Options::new()).unwrap_or_else(|e| panic!("{e}"));
    // `target_` is the GLSL's own: the alias takes the next free name.
    assert_eq!(
        translation.aliases,
        [("target".to_string(), "target__1".to_string())]
    );
    let (mut globals, _) = wgsl_names(&translation.wgsl);
    globals.sort();
    assert_eq!(globals, ["target_", "target__1"], "{}", translation.wgsl);
    let text = "#version 450\nlayout(local_size_x = 1) in;\n\nlayout(constant_id = 0) const uint module = 4;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = module; }\n";
    let (construct, _, location) = refusal(text);
    assert!(construct.contains("`module`"), "{construct}");
    assert!(construct.contains("cannot spell"), "{construct}");
    assert_eq!(location, "k.comp:4");
}

/// A binding named like a predeclared WGSL name the translated kernel uses would hide it: it is
/// `name_` in the WGSL, listed among the aliases (`mix` with a `bool` is WGSL's `select`; a
/// `readonly` image is a `read` texture).
#[test]
fn names_the_translated_kernel_uses_are_aliased() {
    for (text, name) in [
        (
            "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { float v[]; };\nlayout(std430, binding = 1) buffer C { float select[]; };\nvoid main() { select[0] = mix(v[0], v[1], v[2] > 0.0); }\n",
            "select",
        ),
        (
            "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0, r32f) uniform readonly image2D img;\nlayout(std430, binding = 1) buffer C { float read[]; };\nvoid main() { read[0] = imageLoad(img, ivec2(0)).x; }\n",
            "read",
        ),
    ] {
        let translation =
            translate("k.comp", text, &Options::new()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            translation.aliases,
            [(name.to_string(), format!("{name}_"))]
        );
        let (globals, _) = wgsl_names(&translation.wgsl);
        assert!(
            globals.contains(&format!("{name}_")),
            "{}",
            translation.wgsl
        );
    }
}

/// A GLSL name ending in `_`, and names naga's namer would make one (`data` and `data_`; `N`,
/// `N_` and `N_1`), each keep their own.
#[test]
fn names_that_collide_after_renaming_are_kept() {
    let text = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint data_[]; };
void main() { data_[0] = 1u; }
";
    assert_names(text, &["data_"], &[]);
    let text = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(std430, binding = 1) buffer C { uint data_[]; };
void main() { data[0] = data_[0]; }
";
    assert_names(text, &["data", "data_"], &[]);
    let text = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint N[]; };
layout(std430, binding = 1) buffer C { uint N_[]; };
layout(std430, binding = 2) buffer D { uint N_1[]; };
void main() { N[0] = N_[0] + N_1[0]; }
";
    assert_names(text, &["N", "N_", "N_1"], &[]);
}

/// Renaming a type `P` to `P_type` made it equal to another type, and naga asserted: an error
/// or a translation, never a panic.
#[test]
fn renamed_types_equal_to_others_are_no_panic() {
    let text = "#version 450
layout(local_size_x = 1) in;
struct P { float v; };
struct P_type { float v; };
layout(std430, binding = 0) buffer A { P a[]; } P_;
layout(std430, binding = 1) buffer C { P_type c[]; };
void main() { P_.a[0].v = c[0].v; }
";
    match std::panic::catch_unwind(|| to_wgsl("k.comp", text)) {
        Ok(Ok(wgsl)) => {
            let (mut globals, _) = wgsl_names(&wgsl);
            globals.sort();
            assert_eq!(globals, ["P_", "c"], "{wgsl}");
        }
        Ok(Err(e)) => assert!(matches!(e, Error::Translate { .. }), "{e:?}"),
        Err(_) => panic!("panicked on a type renamed like another"),
    }
}
