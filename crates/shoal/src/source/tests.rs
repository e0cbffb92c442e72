// In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
use super::*;
use crate::error::Error;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[test]
fn imports_keep_line_numbers_and_resolve_once() {
    let src = Source::new(
        "k.wgsl",
        "#import shoal::fold\n#import shoal::fold\nfn main() {}\n",
    );
    let c = Composed::new(&src).expect("composes");
    assert!(c.text.lines().nth(2) == Some("fn main() {}"));
    assert_eq!(c.text.matches("fn shoal_linear_index").count(), 1);
    let at = c.text.find("fn main").expect("present");
    assert_eq!(c.locate(at).1, 3);
    let in_snippet = c.text.find("fn shoal_linear_index").expect("present");
    assert_eq!(c.locate(in_snippet).0, "wgsl/shared/fold.wgsl");
}

#[test]
fn template_snippets_are_instantiated_per_argument_list() {
    let src = Source::new(
        "k.wgsl",
        "#import shoal::append(a, f32)\n#import shoal::append( b , vec4<f32> )\n#import shoal::append(a,f32)\n",
    );
    let c = Composed::new(&src).expect("composes");
    assert_eq!(c.text.matches("fn a_append(shoal_value: f32)").count(), 1);
    assert_eq!(
        c.text
            .matches("fn b_append(shoal_value: vec4<f32>)")
            .count(),
        1
    );
    assert!(!c.text.contains("SHOAL_"), "every parameter replaced");
    assert!(
        !c.text.lines().any(|l| l.trim_end().ends_with("// example")),
        "example lines blanked"
    );
    let at = c.text.find("fn b_append").expect("present");
    assert!(c.locate(at).0.ends_with("append.wgsl (b, vec4<f32>)"));
    let wrong = Source::new("k.wgsl", "#import shoal::append(a)\n");
    assert!(matches!(
        Composed::new(&wrong),
        Err(Error::SnippetArguments { got: 1, .. })
    ));
}

#[test]
fn unknown_snippet_is_an_error() {
    let src = Source::new("k.wgsl", "#import nope\n");
    assert!(matches!(
        Composed::new(&src),
        Err(Error::UnknownSnippet { .. })
    ));
}

#[test]
fn subgroup_directive_is_stripped_for_naga_and_added_for_browsers() {
    let src = Source::new(
        "k.wgsl",
        "enable subgroups;\nfn f() -> u32 { return subgroupAdd(1u); }\n",
    );
    let c = Composed::new(&src).expect("composes");
    assert!(!c.text.contains("enable"));
    assert!(c.uses_subgroups);
    assert!(
        c.for_backend(wgpu::Backend::BrowserWebGpu)
            .starts_with("enable subgroups;")
    );
    assert!(!c.for_backend(wgpu::Backend::Vulkan).contains("enable"));
}

/// Only the directive's `subgroups` goes: the rest of its line, its other extensions and every
/// kept character's column stay; lines that merely start with the word are left alone.
#[test]
fn only_the_subgroups_extension_is_stripped() {
    let composed = |text: &str| Composed::new(&Source::new("k.wgsl", text)).expect("composes");
    let one_line = composed(
        "enable subgroups; @compute @workgroup_size(64) fn wanted() {}\n\
         @compute @workgroup_size(1) fn other() {}\n",
    );
    assert_eq!(
        one_line.text.lines().next(),
        Some("                  @compute @workgroup_size(64) fn wanted() {}")
    );
    assert!(one_line.uses_subgroups);
    let both = composed("enable subgroups, f16;\nfn f() {}\n");
    assert_eq!(both.text.lines().next(), Some("enable f16;           "));
    let spaced = composed("  enable f16 ,subgroups ; fn f() {}\n");
    let directive = "enable f16 ,subgroups ;";
    assert_eq!(
        spaced.text,
        format!(
            "  {:width$} fn f() {{}}\n",
            "enable f16;",
            width = directive.len()
        )
    );
    for untouched in [
        "enabled_subgroups = 1;\n",
        "enable f16;\n",
        "// enable subgroups;\n",
    ] {
        let c = composed(untouched);
        assert_eq!(c.text, untouched);
        assert!(!c.uses_subgroups, "{untouched:?}");
    }
    // The one-line kernel keeps the entry point it names.
    let module = naga::front::wgsl::parse_str(&one_line.text).expect("parses");
    let names: Vec<&str> = module
        .entry_points
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names, ["wanted", "other"]);
}

/// The `file:line:column` lines of the diagnostic `validate` gives for `source`.
fn located(source: &Source) -> Vec<String> {
    match crate::validate(source) {
        Err(Error::Wgsl { message, .. }) => message
            .lines()
            .filter_map(|l| l.trim().strip_prefix("--> "))
            .map(str::to_string)
            .collect(),
        other => panic!("expected a WGSL error, got {other:?}"),
    }
}

#[test]
fn errors_in_snippets_and_blocks_name_their_own_file_and_line() {
    let snippet = Source::new(
        "wgsl/helpers.wgsl",
        "fn ok() -> u32 { return 1u; }\nfn bad() -> u32 { return nope; }\n",
    );
    let base = "// #block op\nalias T = u32;\n// #end op\n#import helpers\nfn f(x: T) -> T { return x; }\n";
    // The error in the snippet: its own file, line 2.
    let src = Source::new("k.wgsl", base).snippet("helpers", snippet.clone());
    assert_eq!(located(&src), ["wgsl/helpers.wgsl:2:26"]);
    // The error in the replacement of a block: the block's own label and line 2.
    let good = Source::new("wgsl/helpers.wgsl", "fn ok() -> u32 { return 1u; }\n");
    let src = Source::new("k.wgsl", base)
        .snippet("helpers", good.clone())
        .block("op", "alias T = f32;\nconst c: T = missing;");
    assert_eq!(located(&src), ["<block op of k.wgsl>:2:14"]);
    // After a block replaced by more lines than it had, the file's own lines keep their numbers.
    let after = "// #block op\nalias T = u32;\n// #end op\nfn f(x: T) -> T { return y; }\n";
    let src =
        Source::new("k.wgsl", after).block("op", "alias T = u32;\nconst a = 1u;\nconst b = 2u;\n");
    assert_eq!(located(&src), ["k.wgsl:4:26"]);
    // A block given as a labelled source names that source.
    let src = Source::new("k.wgsl", after).block("op", Source::new("op.wgsl", "alias T = nope;\n"));
    assert!(
        located(&src)[0].starts_with("op.wgsl:1:"),
        "{:?}",
        located(&src)
    );
}

#[test]
fn subgroup_use_is_decided_after_blocks_are_replaced() {
    let text = "// #block lane\nfn f() -> u32 { return subgroupAdd(1u); }\n// #end lane\n";
    let with = Composed::new(&Source::new("k.wgsl", text)).expect("composes");
    assert!(with.uses_subgroups);
    let without = Source::new("k.wgsl", text).block("lane", "fn f() -> u32 { return 1u; }");
    assert!(!Composed::new(&without).expect("composes").uses_subgroups);
}

#[test]
fn static_sources_are_named_without_parent_directories() {
    assert_eq!(
        Source::from_static("../../../wgsl/scan.wgsl", "").path(),
        "wgsl/scan.wgsl"
    );
    // The packaged crates reach the top-level wgsl/ through their own `wgsl` symlink.
    for path in ["../wgsl/scan.wgsl", "../../wgsl/scan.wgsl"] {
        assert_eq!(Source::from_static(path, "").path(), "wgsl/scan.wgsl");
    }
    assert_eq!(Source::from_static("./k.wgsl", "").path(), "k.wgsl");
    assert_eq!(Source::from_static("wgsl/a.wgsl", "").path(), "wgsl/a.wgsl");
}

#[test]
fn blocks_that_do_not_fit_are_errors() {
    let src = Source::new("k.wgsl", "fn f() {}\n").block("op", "alias T = u32;");
    assert!(matches!(Composed::new(&src), Err(Error::Block { name, .. }) if name == "op"));
    let open =
        Source::new("k.wgsl", "// #block op\nalias T = u32;\n").block("op", "alias T = i32;");
    let e = Composed::new(&open).expect_err("unterminated");
    assert!(
        e.to_string().contains("k.wgsl:1 has no `// #end op` line"),
        "{e}"
    );
    let twice = Source::new(
        "k.wgsl",
        "// #block op\n// #end op\n// #block op\n// #end op\n",
    )
    .block("op", "");
    assert!(matches!(Composed::new(&twice), Err(Error::Block { .. })));
    // A region without a substitution stays as written.
    let kept = Source::new("k.wgsl", "// #block op\nalias T = u32;\n// #end op\n");
    assert!(
        Composed::new(&kept)
            .expect("composes")
            .text
            .contains("alias T = u32;")
    );
}

#[test]
fn printf_calls_are_tagged_with_their_site_keeping_columns() {
    let text = "#import shoal::printf\n@compute @workgroup_size(1)\nfn main(@builtin(global_invocation_id) g: vec3<u32>) {\n    shoal_print_u32(g, 1u); shoal_print_vec2f(g, vec2<f32>());\n}\n";
    let c = Composed::new(&Source::new("k.wgsl", text)).expect("composes");
    assert_eq!(c.print_sites, ["k.wgsl:4:5", "k.wgsl:4:29"]);
    let line = c.text.lines().nth(3).expect("line 4");
    assert_eq!(
        line,
        "    shoal_p00001u32(g, 1u); shoal_p00002vec2f(g, vec2<f32>());"
    );
    assert!(
        c.text
            .contains("fn shoal_p00002vec2f(gid: vec3<u32>, v: vec2<f32>)")
    );
    crate::validate(&Source::new("k.wgsl", text)).expect("the tagged kernel validates");
    // Without the import nothing is renamed (the error then names the user's own call).
    let plain = Composed::new(&Source::new("k.wgsl", &text[22..])).expect("composes");
    assert!(plain.print_sites.is_empty() && plain.text.contains("shoal_print_u32"));
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_file_that_cannot_be_read_is_an_io_error() {
    let e = Source::from_file("no/such/kernel.wgsl").expect_err("missing file");
    assert!(matches!(e, crate::Error::Io { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("cannot read no/such/kernel.wgsl: "),
        "{e}"
    );
}

/// The public composition: every composed line, its text and where it came from, exactly — the
/// source's own lines, a block's replacement, the lines after the region, and a snippet (one
/// without a final line break, which still ends its line before the next file).
#[test]
fn composed_wgsl_maps_every_line_to_its_file() {
    let twice = Source::new(
        "twice.wgsl",
        "// twice\nfn twice(x: T) -> T { return 2 * x; }",
    );
    let src = Source::new(
        "k.wgsl",
        "#import twice\n// #block value\nalias T = f32;\n// #end value\nfn f() -> T { return twice(3); }\n",
    )
    .snippet("twice", twice)
    .block("value", "alias T = u32;\n// u32, not f32");
    let wgsl = src.wgsl().expect("composes");
    let lines: Vec<(&str, &str, usize)> = wgsl.lines().collect();
    assert_eq!(
        lines,
        [
            ("             ", "k.wgsl", 1),
            ("// #block value", "k.wgsl", 2),
            ("alias T = u32;", "<block value of k.wgsl>", 1),
            ("// u32, not f32", "<block value of k.wgsl>", 2),
            ("// #end value", "k.wgsl", 4),
            ("fn f() -> T { return twice(3); }", "k.wgsl", 5),
            ("// twice", "twice.wgsl", 1),
            ("fn twice(x: T) -> T { return 2 * x; }", "twice.wgsl", 2),
        ]
    );
    assert_eq!(wgsl.origin(0), None);
    assert_eq!(wgsl.origin(9), None);
    assert_eq!(wgsl.line(6), Some("fn f() -> T { return twice(3); }"));
    assert_eq!(wgsl.to_string(), wgsl.text());
    assert!(!wgsl.uses_subgroups());
    crate::validate(&src).expect("the composed text validates");
    // A source that does not compose is the error building its kernel gives.
    let missing = Source::new("k.wgsl", "fn f() {}\n").block("value", "alias T = u32;");
    assert!(matches!(missing.wgsl(), Err(Error::Block { name, .. }) if name == "value"));
}
