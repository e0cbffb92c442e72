//! `docs/errors.md` documents every [`Error`](crate::Error) variant: this test reads the
//! variants from `error.rs` and the page's `###` headings, and fails when they differ, so a new
//! variant cannot land without its section (cause, example message, remedy, test).

// In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

const ERROR_RS: &str = include_str!("error.rs");
const PAGE: &str = include_str!("../../../docs/errors.md");

/// The variant names of `pub enum Error`, in order: the lines inside the enum indented by
/// exactly four spaces that start with an upper-case identifier.
fn variants() -> Vec<&'static str> {
    let start = ERROR_RS.find("pub enum Error {").expect("the enum");
    let body = &ERROR_RS[start..];
    let body = &body[..body.find("\n}\n").expect("the enum's end")];
    body.lines()
        .filter_map(|line| line.strip_prefix("    "))
        .filter(|line| line.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|line| {
            let end = line
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(line.len());
            &line[..end]
        })
        .collect()
}

/// The names in the page's `### \`Name\`` headings.
fn headings() -> Vec<&'static str> {
    PAGE.lines()
        .filter_map(|line| line.strip_prefix("### `")?.strip_suffix('`'))
        .collect()
}

#[test]
fn every_variant_has_a_section() {
    let variants = variants();
    assert!(variants.len() >= 40, "read {variants:?} from error.rs");
    let headings = headings();
    let missing: Vec<_> = variants.iter().filter(|v| !headings.contains(v)).collect();
    assert!(
        missing.is_empty(),
        "docs/errors.md has no `### `Name`` section for {missing:?}: add each with its cause, an example message, the remedy and the test that triggers it"
    );
    let unknown: Vec<_> = headings.iter().filter(|h| !variants.contains(h)).collect();
    assert!(
        unknown.is_empty(),
        "docs/errors.md documents {unknown:?}, which are not variants of Error"
    );
    for section in PAGE.split("\n### `").skip(1) {
        let title = section.lines().next().unwrap_or_default();
        for part in ["**Cause:**", "**Example:**", "**Remedy:**", "**Test:**"] {
            assert!(
                section.contains(part),
                "docs/errors.md: section {title} has no {part}"
            );
        }
    }
}

#[test]
fn the_source_reading_matches_the_enum() {
    let variants = variants();
    let e = crate::Error::Readback(String::new());
    assert!(variants.contains(&e.name()));
    // Every name the exhaustive match knows is one the source reading found, and as many.
    let known = [
        "NoAdapter",
        "UnknownBackend",
        "RequestDevice",
        "Wgsl",
        "Glsl",
        "GlslUnsupported",
        "Hlsl",
        "UnknownSnippet",
        "SnippetArguments",
        "Block",
        "EntryPoint",
        "Override",
        "MissingFeature",
        "WorkgroupTooLarge",
        "WorkgroupMemory",
        "TooManyGroups",
        "NoSize",
        "IndirectOffset",
        "IndirectOutOfBounds",
        "MissingUsage",
        "Unbound",
        "UnknownBinding",
        "BindingKind",
        "ElementLayout",
        "Immediates",
        "BufferTooSmall",
        "ImageSize",
        "ImageUsage",
        "TexelType",
        "ImageFormat",
        "ImageDimension",
        "StorageAccess",
        "Unfilterable",
        "AppendOverflow",
        "PrintfOverflow",
        "ElementCodec",
        "Length",
        "Readback",
        "Timeout",
        "DeviceLost",
        "Wgpu",
        "Io",
        "WrongGpu",
        "Aliasing",
        "BindingTooLarge",
        "BindingNumber",
        "TooManyBindings",
        "ResourceTooLarge",
        "InvalidParameter",
    ];
    assert_eq!(
        variants, known,
        "a variant added to Error: add it to `name`, `known` and docs/errors.md"
    );
}
