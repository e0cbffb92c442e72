//! The kernel-family contract of docs/architecture.md, held by a test: every family found in this
//! crate's sources has the contract's constructors, `record`/`run` (or `record_step`/`step`) with
//! their receivers and return types, a CPU twin, a test file and a showcase entry, and every
//! showcase entry passes on the test adapter. A new family cannot skip any of it: it is found by
//! its `pub fn new(gpu: &Gpu` alone.

use std::path::{Path, PathBuf};

/// Types with `new(gpu: &Gpu)` that are not kernel families, and why.
const NOT_FAMILIES: &[(&str, &str)] = &[(
    "CompactCount",
    "the count and dispatch arguments a compaction leaves on the GPU: a result, not a kernel",
)];

/// Constructors besides `new` the contract allows.
const CONSTRUCTORS: &[&str] = &["new", "with_tiling", "from_source"];

/// A family as found in the sources: its type, the module (file stem or folder) that holds it,
/// and the signatures of its public methods with whitespace collapsed.
#[derive(Debug)]
struct Family {
    name: String,
    module: String,
    methods: Vec<String>,
}

impl Family {
    fn named<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a String> + 'a {
        self.methods
            .iter()
            .filter(move |m| method_name(m).starts_with(prefix))
    }
}

/// `record_pairs` of `pub fn record_pairs(&self, …`.
fn method_name(signature: &str) -> &str {
    let after = signature
        .split_once("fn ")
        .map_or(signature, |(_, rest)| rest);
    after.split(['(', '<']).next().unwrap_or(after).trim()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file belongs to: `blur` for `src/blur.rs` and `src/blur/cpu.rs`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let first = rel.iter().next().map(|s| s.to_string_lossy().to_string());
    first
        .unwrap_or_default()
        .trim_end_matches(".rs")
        .to_string()
}

/// Every `impl Type { … }` block (at the start of a line) holding `pub fn new(gpu: &Gpu`.
fn families(src: &Path) -> Vec<Family> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            let header = line
                .strip_prefix("impl")
                .filter(|rest| rest.starts_with(' ') || rest.starts_with('<'));
            let Some(header) = header.filter(|h| !h.contains(" for ")) else {
                i += 1;
                continue;
            };
            let name = header
                .trim_start_matches(|c| c != ' ' && c != '<')
                .trim_start_matches('<')
                .split_once('>')
                .map_or(header, |(_, rest)| rest)
                .trim()
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
                .unwrap_or("")
                .to_string();
            let end = (i + 1..lines.len())
                .find(|&j| lines[j] == "}")
                .unwrap_or(lines.len());
            let mut methods = Vec::new();
            let mut j = i + 1;
            while j < end {
                let t = lines[j].trim_start();
                if t.starts_with("pub fn ") || t.starts_with("pub async fn ") {
                    let mut sig = String::new();
                    while j < end {
                        let part = lines[j].trim();
                        let stop = part.ends_with('{');
                        sig.push_str(part.trim_end_matches('{'));
                        sig.push(' ');
                        j += 1;
                        if stop {
                            break;
                        }
                    }
                    let sig = sig.split_whitespace().collect::<Vec<_>>().join(" ");
                    methods.push(sig.replace("( ", "(").replace(", )", ")"));
                } else {
                    j += 1;
                }
            }
            if methods
                .iter()
                .any(|m| m.starts_with("pub fn new(gpu: &Gpu"))
                && !NOT_FAMILIES.iter().any(|(n, _)| *n == name)
            {
                found.push(Family {
                    name,
                    module: module_of(src, &file),
                    methods,
                });
            }
            i = end + 1;
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// The types with an `impl … Record<…> for Type` (at the start of a line): their `record` and
/// `run` are the trait's.
fn trait_families(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let texts = files.iter().filter_map(|f| std::fs::read_to_string(f).ok());
    let lines: Vec<String> = texts
        .flat_map(|t| t.lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    lines
        .iter()
        .filter(|line| line.starts_with("impl") && line.contains(" Record<"))
        .filter_map(|line| line.split_once(" for "))
        .filter_map(|(_, ty)| ty.split(|c: char| !c.is_alphanumeric() && c != '_').next())
        .map(str::to_string)
        .collect()
}

/// What `family` breaks of the contract, one line each.
fn breaches(
    family: &Family,
    src: &Path,
    crate_dir: &Path,
    showcase: &[&str],
    traits: &[String],
) -> Vec<String> {
    let mut out = Vec::new();
    let name = &family.name;
    let simulation = family.named("step").count() > 0;
    for m in &family.methods {
        let method = method_name(m);
        let returns_self = m.contains("-> Result<Self>") || m.contains("-> shoal::Result<Self>");
        if returns_self && !CONSTRUCTORS.contains(&method) {
            out.push(format!(
                "{name}::{method}: constructors are new, with_tiling or from_source"
            ));
        }
        let submission =
            m.ends_with("-> Result<Submission>") || m.ends_with("-> Result<shoal::Submission>");
        match method {
            "record_step" if !m.contains("(&mut self, commands: &mut Commands") => out.push(
                format!("{name}::record_step takes (&mut self, commands: &mut Commands, …)"),
            ),
            "step" if !m.contains("(&mut self") || !submission => out.push(format!(
                "{name}::step takes &mut self and returns Result<Submission>"
            )),
            "record_step" | "step" => {}
            "steps" | "record_steps" => out.push(format!(
                "{name}::{method}: a simulation advances with step / record_step"
            )),
            // A simulation's other operations on its state (`Waves::record_disturb`) move it too.
            _ if method.starts_with("record") => {
                let receiver = if simulation && m.contains("(&mut self") {
                    "(&mut self"
                } else {
                    "(&self"
                };
                if !m.contains(&format!("{receiver}, commands: &mut Commands")) {
                    out.push(format!(
                        "{name}::{method} takes (&self, commands: &mut Commands, …): \
                         a batch is recorded without changing the family"
                    ));
                }
            }
            _ if method.starts_with("run") && (!m.contains("(&self") || !submission) => out.push(
                format!("{name}::{method} takes &self and returns Result<Submission>"),
            ),
            _ => {}
        }
    }
    let through_trait = traits.contains(name);
    let records = family.named("record").count() > 0 || through_trait;
    let runs = family.named("run").count() > 0 || family.named("step").count() > 0 || through_trait;
    if !records || !runs {
        out.push(format!(
            "{name}: has no record/run (or record_step/step) pair"
        ));
    }
    // The twin: a `pub fn …_cpu(` (or the module's cpu.rs) in the family's module.
    let module_file = src.join(format!("{}.rs", family.module));
    let module_dir = src.join(&family.module);
    let mut files = vec![module_file];
    rust_files(&module_dir, &mut files);
    let twin = files.iter().any(|f| {
        std::fs::read_to_string(f).is_ok_and(|t| {
            t.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with("pub fn ") && method_name(l).ends_with("_cpu")
            })
        })
    });
    if !twin {
        out.push(format!(
            "{name}: no CPU twin (a `pub fn …_cpu(` in module `{}`)",
            family.module
        ));
    }
    let test_files = [
        module_dir.join("tests.rs"),
        crate_dir
            .join("tests")
            .join(format!("{}.rs", family.module)),
    ];
    if !test_files.iter().any(|f| f.exists()) {
        out.push(format!(
            "{name}: no test file (src/{0}/tests.rs or tests/{0}.rs)",
            family.module
        ));
    }
    let prefix = format!("{name} ");
    if !showcase.iter().any(|s| s.starts_with(&prefix)) {
        out.push(format!(
            "{name}: no showcase entry (showcase::ALL, a name starting with `{name} `)"
        ));
    }
    out
}

#[test]
fn every_family_follows_the_contract() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = crate_dir.join("src");
    let found = families(&src);
    let names: Vec<&str> = found.iter().map(|f| f.name.as_str()).collect();
    // The finder itself: families of every kind are found.
    for expected in ["Scan", "RadixSort", "GaussianBlur", "Boids", "Invert"] {
        assert!(
            names.contains(&expected),
            "{expected} not found among {names:?}"
        );
    }
    let showcase: Vec<&str> = crate::showcase::ALL
        .iter()
        .map(|e| e.0)
        .chain(crate::checks::ALL.iter().map(|e| e.0))
        .collect();
    let traits = trait_families(&src);
    let all: Vec<String> = found
        .iter()
        .flat_map(|f| breaches(f, &src, crate_dir, &showcase, &traits))
        .collect();
    assert!(
        all.is_empty(),
        "{} families, {} breaches of the contract (docs/architecture.md):\n{}",
        found.len(),
        all.len(),
        all.join("\n")
    );
}

shoal_conformance::gpu_test! {
    /// Every showcase entry — one per family, through `new`, `record` and `run` — against its
    /// CPU twin on this adapter.
    async fn every_showcase_entry_passes(gpu) {
        let mut failed = Vec::new();
        for (name, check) in crate::showcase::ALL.iter().chain(crate::checks::ALL) {
            if let Err(e) = check(&gpu).await {
                failed.push(format!("{name}: {e}"));
            }
        }
        assert!(failed.is_empty(), "{}", failed.join("\n"));
    }
}
