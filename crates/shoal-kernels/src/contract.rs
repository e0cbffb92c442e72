//! The kernel-family contract of docs/architecture.md, held by the compiler (every family
//! implements `shoal::Family` and a `shoal::Record` per operation) and by this test, driven by
//! the one registry: every entry of [`crate::showcase::ALL`] — each a family through `new`,
//! `record` and `run` — passes against its CPU twin on the test adapter.

use crate::showcase::ALL;

#[test]
fn every_entry_names_its_family_first() {
    // The table rows of `cargo xtask run` and the kernels page are read by family.
    let misnamed: Vec<&str> = ALL
        .iter()
        .filter(|e| !e.name.starts_with(&format!("{} ", e.family)))
        .map(|e| e.name)
        .collect();
    assert!(
        misnamed.is_empty(),
        "entries not named by their family first: {misnamed:?}"
    );
    let mut names: Vec<&str> = ALL.iter().map(|e| e.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ALL.len(), "two entries share a name");
}

shoal_conformance::gpu_test! {
    /// Every registry entry against its CPU twin on this adapter.
    async fn every_registry_entry_passes(gpu) {
        let mut failed = Vec::new();
        for entry in ALL {
            if let Err(e) = (entry.check)(&gpu).await {
                failed.push(format!("{}: {e}", entry.name));
            }
        }
        assert!(failed.is_empty(), "{} of {} entries failed:\n{}", failed.len(), ALL.len(), failed.join("\n"));
    }
}
