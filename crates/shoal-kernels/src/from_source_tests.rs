//! The from-source constructors and `set_source` of the families the demos hot-reload: an edited
//! source takes effect, a broken one is a typed [`shoal::Error::Wgsl`] naming its file and line,
//! and the old kernels keep working after a failed reload. The helpers here serve every family's
//! test file (`src/<family>/tests.rs`), which holds its own family's hot-reload test.

use glam::Vec4;
use shoal::{Error, Record, Source};
use shoal_conformance::gpu_test;

use crate::splat::{
    self, Camera, Packing, SceneData, Splat, SplatFrameArgs, SplatProjectionArgs, SplatSources,
};

const SPLAT: &str = include_str!("../wgsl/splat.wgsl");
const SPLAT_INT64: &str = include_str!("../wgsl/splat_int64.wgsl");
const SPLAT_COMMON: &str = include_str!("../wgsl/splat_common.wgsl");

/// `text` with `from` replaced by `to` (which must occur), labelled `path`.
pub(crate) fn edited(path: &str, text: &str, from: &str, to: &str) -> Source {
    assert!(text.contains(from), "{path} no longer contains `{from}`");
    Source::new(path, text.replacen(from, to, 1))
}

/// A copy of `text` with a syntax error on line 3, labelled `path`.
pub(crate) fn broken(path: &str, text: &str) -> Source {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(2, "fn broken( {");
    Source::new(path, lines.join("\n"))
}

/// The error is a WGSL error that names `path` at line 3.
pub(crate) fn assert_names_line_3(result: Result<(), Error>, path: &str) {
    match result {
        Err(Error::Wgsl { message, .. }) => {
            assert!(message.contains(&format!("{path}:3:")), "{message}");
        }
        other => panic!("{path}: expected a WGSL error, got {other:?}"),
    }
}

gpu_test! {
    /// Splatting from edited sources: a clear that writes 7 (splat.wgsl) and a culled status of
    /// 0xFFFFFFF0 (the `splat::common` snippet) both take effect. Broken copies of splat.wgsl,
    /// of the snippet and (where it compiles at all) of splat_int64.wgsl are typed errors naming
    /// their own file and line, and the splatter keeps its last good kernels.
    async fn splat_from_source_takes_effect_and_keeps_old_on_error(gpu) {
        const EDITED_CULLED: u32 = 0xFFFF_FFF0;
        let clear_7 = edited("edited/splat.wgsl", SPLAT, "accum_words[i] = vec2<u32>(0u);", "accum_words[i] = vec2<u32>(7u);");
        let culled = edited(
            "edited/splat_common.wgsl",
            SPLAT_COMMON,
            "const SPLAT_CULLED: u32 = 0xFFFFFFFFu;",
            "const SPLAT_CULLED: u32 = 0xFFFFFFF0u;",
        );
        let mut sources = SplatSources::default();
        sources.set(clear_7.clone()).expect("splat.wgsl");
        sources.set(culled).expect("splat_common.wgsl");
        assert!(matches!(sources.set(Source::new("edited/other.wgsl", "")), Err(Error::InvalidParameter { .. })));
        let mut splat = Splat::from_source(&gpu, sources, Some(Packing::TwoU32)).expect("splat");

        // One particle outside the view (x = 5 > w = 1 with the identity camera).
        let (w, h) = (16u32, 16u32);
        let data = SceneData {
            camera: Camera::identity(w, h),
            geometry: Vec::new(),
            particles: vec![splat::Particle { position: Vec4::new(5.0, 0.0, 0.5, 1.0), color: Vec4::ONE }],
        };
        let target = splat.target(w, h).expect("target");
        let scene = splat.upload(&data).expect("upload");
        let projected = gpu.buffer_zeroed::<[u32; 4]>(1).expect("buffer");
        let frame = async |splat: &Splat| {
            let mut commands = gpu.commands();
            let (target, scene, out) = (&target, &scene, &projected);
            splat.record(&mut commands, SplatFrameArgs { target, scene }).expect("frame");
            splat.record(&mut commands, SplatProjectionArgs { target, scene, out }).expect("projection");
            commands.submit().expect("submit").wait().await.expect("wait");
            let words = target.read_accum().await.expect("accum");
            assert!(words.iter().all(|w| *w == [7, 7]), "the edited clear ran: {:?}", words[0]);
            let status = projected.read().await.expect("read")[0][0];
            assert_eq!(status, EDITED_CULLED, "the edited snippet's status");
        };
        frame(&splat).await;

        assert_names_line_3(splat.set_source(broken("edited/splat.wgsl", SPLAT)), "edited/splat.wgsl");
        frame(&splat).await;
        splat.set_source(clear_7).expect("the edited splat.wgsl compiles again");
        assert_names_line_3(splat.set_source(broken("edited/splat_common.wgsl", SPLAT_COMMON)), "edited/splat_common.wgsl");
        frame(&splat).await;
        let mut broken_common = SplatSources::default();
        broken_common.set(broken("edited/splat_common.wgsl", SPLAT_COMMON)).expect("set");
        assert_names_line_3(Splat::from_source(&gpu, broken_common, Some(Packing::TwoU32)).map(drop), "edited/splat_common.wgsl");

        if gpu.has_int64_atomics() {
            let mut wide = Splat::new(&gpu, Some(Packing::Int64)).expect("64-bit splat");
            assert_names_line_3(wide.set_source(broken("edited/splat_int64.wgsl", SPLAT_INT64)), "edited/splat_int64.wgsl");
            wide.set_source(Source::new("edited/splat_int64.wgsl", SPLAT_INT64)).expect("the original compiles");
        }
    }
}

/// The crate's kernels are named by their place under the top-level `wgsl/`, not by the relative
/// path the crate includes them through (its `wgsl` symlink), so messages read the same from a
/// packaged crate.
#[test]
fn kernel_labels_are_stable_names() {
    assert_eq!(crate::scan::SOURCE.path(), "wgsl/scan.wgsl");
    assert_eq!(crate::splat::COMMON.path(), "wgsl/splat_common.wgsl");
    let labels: Vec<&str> = crate::SNIPPETS.iter().map(|(_, s)| s.path()).collect();
    assert!(
        labels.iter().all(|l| l.starts_with("wgsl/")),
        "snippet labels {labels:?}"
    );
}
