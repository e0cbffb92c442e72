use shoal::Source;
use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;

use super::*;
use crate::from_source_tests::{assert_names_line_3, broken};

const GRID: &str = include_str!("../../wgsl/grid.wgsl");

#[test]
fn the_documents_sizes() {
    assert_eq!(Grid::groups(1280, 720), [80, 45, 1]);
    let cpu = grid_cpu(32, 32);
    assert_eq!(cpu[0], ORANGE, "work group (0, 0): equal parities, orange");
    assert_eq!(cpu[16], BLUE, "work group (1, 0)");
    assert_eq!(cpu[16 * 32], BLUE, "work group (0, 1)");
    assert_eq!(cpu[16 * 32 + 16], ORANGE, "work group (1, 1)");
}

/// The first pixel where `got` and `want` differ, as a message.
fn first_difference(w: u32, got: &[[f32; 4]], want: &[[f32; 4]]) -> Option<String> {
    (0..got.len()).find(|&i| got[i] != want[i]).map(|i| {
        format!(
            "pixel ({}, {}) is {:?}, the CPU says {:?}",
            i as u32 % w,
            i as u32 / w,
            got[i],
            want[i]
        )
    })
}

gpu_test! {
    /// Every pixel of the document's 1280 x 720 grid, and of sizes that cut patches, equals the
    /// CPU twin's.
    async fn grid_matches_the_cpu_exactly(gpu) {
        let grid = Grid::new(&gpu).expect("kernel");
        for [w, h] in [SIZE, [37, 50], [1, 1], [16, 16], [100, 3]] {
            let image = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            grid.run(GridArgs { image: &image }).expect("run");
            let got = image.read::<[f32; 4]>().await.expect("read");
            if let Some(d) = first_difference(w, &got, &grid_cpu(w, h)) {
                panic!("{w}x{h}: {d}");
            }
        }
    }

    /// Grids recorded into one batch each fill their own image.
    async fn recorded_grids_share_a_batch(gpu) {
        let grid = Grid::new(&gpu).expect("kernel");
        let sizes = [[33u32, 17u32], [64, 48]];
        let images: Vec<_> = sizes.iter().map(|&[w, h]| gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image")).collect();
        let mut commands = gpu.commands();
        for image in &images {
            grid.record(&mut commands, GridArgs { image }).expect("record");
        }
        commands.submit().expect("submit").wait().await.expect("wait");
        for (image, [w, h]) in images.iter().zip(sizes) {
            let got = image.read::<[f32; 4]>().await.expect("read");
            if let Some(d) = first_difference(w, &got, &grid_cpu(w, h)) {
                panic!("{w}x{h}: {d}");
            }
        }
    }

    /// A grid with orange and blue swapped takes effect through `from_source`; a broken source
    /// is a typed error naming file and line, from the constructor and from `set_source`, and
    /// the swapped kernel keeps drawing after the failed reload.
    async fn grid_from_source_swaps_colours_and_keeps_old_on_error(gpu) {
        const ORANGE_LINE: &str = "pixel = vec4<f32>(1.0, 0.5, 0.0, 1.0);";
        const BLUE_LINE: &str = "pixel = vec4<f32>(0.0, 0.5, 1.0, 1.0);";
        assert!(GRID.contains(ORANGE_LINE) && GRID.contains(BLUE_LINE), "grid.wgsl changed its colours");
        let swapped = GRID.replacen(ORANGE_LINE, "@@", 1).replacen(BLUE_LINE, ORANGE_LINE, 1).replacen("@@", BLUE_LINE, 1);
        let (w, h) = (40u32, 24u32);
        let want: Vec<[f32; 4]> = grid_cpu(w, h)
            .into_iter()
            .map(|c| if c == ORANGE { BLUE } else { ORANGE })
            .collect();
        let image = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
        let mut grid = Grid::from_source(&gpu, Source::new("edited/grid.wgsl", swapped)).expect("grid");
        grid.run(GridArgs { image: &image }).expect("run");
        assert!(image.read::<[f32; 4]>().await.expect("read") == want, "the swapped kernel ran");
        assert_names_line_3(Grid::from_source(&gpu, broken("edited/grid.wgsl", GRID)).map(drop), "edited/grid.wgsl");
        assert_names_line_3(grid.set_source(broken("edited/grid.wgsl", GRID)), "edited/grid.wgsl");
        grid.run(GridArgs { image: &image }).expect("the last good kernel still runs");
        assert!(image.read::<[f32; 4]>().await.expect("read") == want, "still swapped");
        grid.set_source(Source::new("edited/grid.wgsl", GRID)).expect("the original compiles");
        grid.run(GridArgs { image: &image }).expect("run");
        assert!(image.read::<[f32; 4]>().await.expect("read") == grid_cpu(w, h), "back to the document's");
    }
}
