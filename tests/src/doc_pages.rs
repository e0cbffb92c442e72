//! The Markdown pages as doctests: one item per page, README.md and every `docs/*.md`,
//! whose documentation is the page, so each Rust block compiles and runs in `cargo test`
//! (`cargo xtask test`, on Vulkan and on GL). A block runs as a program's body: hidden `# `
//! lines give a fragment what it needs (`# fn main() -> Result<(), shoal::Error> {`,
//! `# let gpu = shoal::Gpu::blocking()?;`); paths in it (`shoal::wgsl!`, `include_str!`) are
//! relative to the page, as its links are; a block that cannot run here is marked `rust,no_run`
//! or `rust,ignore` with the reason in the sentence before it. A fence without a language is
//! Rust to rustdoc, and so is a block indented by four spaces: text is fenced as `text`.
//!
//! The items are written here, not generated, and each has the page as its only documentation:
//! rustdoc resolves a doctest's paths from the page's folder only then (an item generated into
//! `OUT_DIR`, or a `///` line before the page, moves them there). The test below fails when a
//! page is missing, so a new page is checked as soon as it exists.

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct Readme;

#[cfg(doctest)]
#[doc = include_str!("../../docs/architecture.md")]
pub struct DocsArchitectureMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/atomics.md")]
pub struct DocsAtomicsMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/demos.md")]
pub struct DocsDemosMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/errors.md")]
pub struct DocsErrorsMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/filters.md")]
pub struct DocsFiltersMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/getting-started.md")]
pub struct DocsGettingStartedMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/glsl.md")]
pub struct DocsGlslMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/images.md")]
pub struct DocsImagesMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/model.md")]
pub struct DocsModelMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/particles.md")]
pub struct DocsParticlesMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/porting.md")]
pub struct DocsPortingMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/ports.md")]
pub struct DocsPortsMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/primitives.md")]
pub struct DocsPrimitivesMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/raw-wgpu.md")]
pub struct DocsRawWgpuMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/robustness.md")]
pub struct DocsRobustnessMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/simulations.md")]
pub struct DocsSimulationsMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/web.md")]
pub struct DocsWebMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/commands.md")]
pub struct DocsCommandsMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/hlsl.md")]
pub struct DocsHlslMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/immediates.md")]
pub struct DocsImmediatesMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/references.md")]
pub struct DocsReferencesMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/sorting.md")]
pub struct DocsSortingMd;

#[cfg(doctest)]
#[doc = include_str!("../../docs/scale.md")]
pub struct DocsScaleMd;

/// Every `docs/*.md` (and README.md) has its item above, so none goes unchecked.
#[cfg(all(test, not(target_arch = "wasm32")))]
#[test]
fn every_page_is_a_doctest() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = vec![root.join("README.md").display().to_string()];
    // The guide's pages; docs/bench/ holds the generated tables, which have no Rust.
    for entry in std::fs::read_dir(root.join("docs"))
        .expect("docs/ is readable")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "md") {
            found.push(path.display().to_string());
        }
    }
    let this = include_str!("doc_pages.rs");
    let missing: Vec<String> = found
        .iter()
        .filter_map(|p| {
            p.strip_prefix(&format!("{}/", root.display()))
                .map(str::to_string)
        })
        .filter(|p| !this.contains(&format!("include_str!(\"../../{p}\")")))
        .collect();
    assert!(found.len() > 10, "read {found:?}");
    assert!(
        missing.is_empty(),
        "pages without a doctest item in tests/src/doc_pages.rs: {missing:?} (add one each)"
    );
}
