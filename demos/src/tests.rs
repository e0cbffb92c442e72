//! Headless renders of the demos, checked for properties their kernels define.

use shoal_conformance::gpu_test;

use crate::cli::Options;
use crate::demo::render;

fn options(size: [u32; 2], mode: Option<&str>) -> Options {
    Options {
        headless: true,
        frames: 1,
        out: None,
        size,
        mode: mode.map(String::from),
    }
}

fn to_u8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

gpu_test! {
    /// Every 16x16 patch of the grid demo has the colour of its work group: orange at (0, 0).
    async fn grid_patches_have_their_work_groups_colours(gpu) {
        let size = shoal_kernels::grid::SIZE;
        let r = render::<crate::grid::GridDemo>(&gpu, &options(size, None)).await.expect("renders");
        let (orange, blue) = (to_u8(shoal_kernels::grid::ORANGE), to_u8(shoal_kernels::grid::BLUE));
        for (gx, gy) in [(0u32, 0u32), (1, 0), (0, 1), (1, 1), (79, 44), (40, 20)] {
            let expected = if (gx & 1) == (gy & 1) { orange } else { blue };
            for (dx, dy) in [(0, 0), (15, 15), (7, 9)] {
                let (x, y) = (gx * 16 + dx, gy * 16 + dy);
                assert_eq!(r.pixels[(y * size[0] + x) as usize], expected, "pixel ({x}, {y}) of group ({gx}, {gy})");
            }
        }
    }

    /// The document's ray tracer: the sphere's centre is the hit colour, the corners are black.
    async fn raytrace_centre_hits_and_corners_miss(gpu) {
        let n = shoal_kernels::raytrace::ORTHO_SIZE;
        let r = render::<crate::raytrace::RayTraceDemo>(&gpu, &options([n, n], None)).await.expect("renders");
        let at = |x: u32, y: u32| r.pixels[(y * n + x) as usize];
        let hit = to_u8(shoal_kernels::raytrace::HIT);
        assert_eq!(at(n / 2, n / 2), [hit[0], hit[1], hit[2], 255]);
        for (x, y) in [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)] {
            assert_eq!(at(x, y), [0, 0, 0, 255], "corner ({x}, {y})");
        }
    }
}
