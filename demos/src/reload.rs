//! Hot reload for the native window: polls the modification times of a demo's WGSL files about
//! twice a second and reads the ones that changed (no file-watching dependency needed).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// How often the files are looked at.
const POLL: Duration = Duration::from_millis(500);

/// The workspace root the demos' WGSL paths are relative to (where this crate was built from).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Watches a fixed set of WGSL files.
#[derive(Debug)]
pub struct Watcher {
    /// Workspace-relative path, full path, last modification time seen.
    files: Vec<(&'static str, PathBuf, Option<SystemTime>)>,
    last_poll: Instant,
}

impl Watcher {
    /// Watches `paths` (relative to `root`). Files that do not exist (a binary run away from its
    /// source tree) are skipped until they appear.
    pub fn new(root: &Path, paths: &[&'static str]) -> Self {
        let files = paths
            .iter()
            .map(|&p| {
                let full = root.join(p);
                let seen = modified(&full);
                (p, full, seen)
            })
            .collect();
        Self {
            files,
            last_poll: Instant::now(),
        }
    }

    /// Whether anything is watched.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The sources of the files changed since the last poll (none when polled again within
    /// half a second), labelled with their workspace-relative paths so messages name them.
    pub fn poll(&mut self) -> Vec<Result<shoal::Source, String>> {
        if self.last_poll.elapsed() < POLL {
            return Vec::new();
        }
        self.last_poll = Instant::now();
        let mut changed = Vec::new();
        for (label, full, seen) in &mut self.files {
            let now = modified(full);
            if now.is_some() && now != *seen {
                *seen = now;
                changed.push(
                    std::fs::read_to_string(&*full)
                        .map(|text| shoal::Source::new(*label, text))
                        .map_err(|e| format!("{}: {e}", full.display())),
                );
            }
        }
        changed
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An edited file is reported once, with its workspace-relative label and new text.
    #[test]
    fn reports_an_edited_file_once() {
        let dir = std::env::temp_dir().join(format!("shoal-reload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("k.wgsl"), "// one\n").expect("write");
        let mut watcher = Watcher::new(&dir, &["k.wgsl", "missing.wgsl"]);
        watcher.last_poll -= POLL;
        assert!(watcher.poll().is_empty(), "nothing changed yet");
        // Some file systems keep whole seconds: make the new time differ for certain.
        let file = std::fs::File::options()
            .write(true)
            .open(dir.join("k.wgsl"))
            .expect("open");
        std::fs::write(dir.join("k.wgsl"), "// two\n").expect("write");
        file.set_modified(SystemTime::now() + Duration::from_secs(5))
            .expect("set mtime");
        watcher.last_poll -= POLL;
        let changed = watcher.poll();
        assert_eq!(changed.len(), 1);
        let source = changed[0].as_ref().expect("read");
        assert_eq!((source.path(), source.text()), ("k.wgsl", "// two\n"));
        watcher.last_poll -= POLL;
        assert!(watcher.poll().is_empty(), "reported once");
        std::fs::remove_dir_all(&dir).ok();
    }
}
