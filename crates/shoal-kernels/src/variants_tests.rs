//! The planners from a [`DeviceProfile`] against the device's own, and the variants' selection
//! (`cargo xtask wgsl`'s choices and errors).

use shoal::DeviceProfile;
use shoal::glam::UVec2;

use crate::test_support::*;
use crate::variants::{self, Choice, FAMILIES};

shoal_conformance::gpu_test! {
    /// The profile of the test adapter plans what the `&Gpu` planners plan; on lavapipe and on
    /// llvmpipe's GL the named profile plans the same too, with the adapter's work-group and
    /// shared-memory limits and subgroups, and the tiles documented for it.
    async fn profiles_plan_what_the_device_plans(gpu) {
        let real = DeviceProfile::from(&gpu);
        assert_eq!(Tiling::for_gpu(&gpu), Tiling::plan(&real));
        assert_eq!(Tiling::for_value::<UVec2>(&gpu), Tiling::plan_value::<UVec2>(&real));
        assert_eq!(SortTiling::for_gpu(&gpu), SortTiling::plan(&real));
        assert_eq!(MatmulTiling::for_gpu(&gpu), MatmulTiling::plan(&real));
        assert_eq!(crate::plan_2d(&gpu, 32), crate::plan_2d_for(&real.limits, 32));
        let details = gpu.adapter_details();
        let named = match (details.backend, details.name.starts_with("llvmpipe")) {
            (shoal::wgpu::Backend::Vulkan, true) => DeviceProfile::lavapipe(),
            (shoal::wgpu::Backend::Gl, true) => DeviceProfile::llvmpipe(),
            _ => return,
        };
        let (l, n) = (&real.limits, &named.limits);
        assert_eq!(l.max_compute_work_group_invocations, n.max_compute_work_group_invocations);
        assert_eq!(l.max_compute_work_group_size, n.max_compute_work_group_size);
        assert_eq!(l.max_compute_shared_memory_size, n.max_compute_shared_memory_size);
        assert_eq!((real.subgroup_size(), real.is_llvmpipe()), (named.subgroup_size(), true));
        assert_eq!(Tiling::plan(&named), Tiling::plan(&real));
        assert_eq!(SortTiling::plan(&named), SortTiling::plan(&real));
        assert_eq!(MatmulTiling::plan(&named), MatmulTiling::plan(&real));
        let configs = |p: &DeviceProfile| {
            crate::histogram::variants(p).into_iter().map(|v| v.0).collect::<Vec<_>>()
        };
        assert_eq!(configs(&named), configs(&real));
        // What the planners chose before they took a profile (docs/primitives.md).
        let one_subgroup = details.backend == shoal::wgpu::Backend::Vulkan;
        let workgroup = (!one_subgroup).then_some(SOFTWARE_WORKGROUP);
        let want = Tiling { per_invocation: crate::ROLLED_PER, one_subgroup, workgroup };
        assert_eq!(Tiling::for_gpu(&gpu), want);
        assert_eq!(SortTiling::for_gpu(&gpu), SortTiling::LLVMPIPE);
        assert_eq!(MatmulTiling::for_gpu(&gpu), MatmulTiling::SOFTWARE);
    }
}

#[test]
fn every_family_has_variants_on_every_profile() {
    let all = variants::all();
    for (family, _) in FAMILIES {
        let of: Vec<_> = all.iter().filter(|v| v.family == *family).collect();
        for profile in shoal::PROFILE_NAMES {
            assert!(
                of.iter()
                    .any(|v| v.config.starts_with(&format!("{profile}:"))),
                "{family} on {profile}"
            );
            assert!(
                of.iter()
                    .any(|v| v.config.starts_with(&format!("{profile} with"))),
                "{family} on {profile} with its subgroups toggled"
            );
        }
    }
    // Every value type and operation of the scan, composed with and without subgroups.
    for key in variants::SCAN_KEYS {
        for (op, _) in variants::OPS {
            let choice = Choice {
                key: Some(key.to_string()),
                op: Some(op.to_string()),
                ..Choice::default()
            };
            let scans = variants::of("scan", &choice, true).expect("scan variants");
            let texts: Vec<String> = scans
                .iter()
                .map(|v| v.source.wgsl().expect("composes").text().to_string())
                .collect();
            assert!(
                texts.iter().any(|t| t.contains("fn subgroup_combine")),
                "{key} {op}"
            );
            assert!(
                texts.iter().any(|t| !t.contains("fn subgroup_combine")),
                "{key} {op}"
            );
            assert!(
                texts
                    .iter()
                    .all(|t| t.contains(&format!("alias T = {key};")))
            );
        }
    }
}

#[test]
fn the_printout_takes_defaults_and_names_what_it_refuses() {
    let default = variants::of("scan", &Choice::default(), false).expect("defaults");
    assert!(!default.is_empty());
    assert!(
        default
            .iter()
            .all(|v| v.config.starts_with("lavapipe: u32, Sum"))
    );
    let sort = Choice {
        key: Some("u64".into()),
        order: Some("desc".into()),
        limits: Some("webgpu".into()),
        ..Choice::default()
    };
    let sorts = variants::of("radix_sort", &sort, false).expect("a sort on webgpu");
    assert!(
        sorts
            .iter()
            .all(|v| v.config.starts_with("webgpu: u64 keys, desc"))
    );
    let refused =
        |family: &str, choice: Choice| variants::of(family, &choice, false).expect_err("refused");
    let e = refused("nope", Choice::default());
    assert!(
        e.contains("unknown family `nope`") && e.contains("scan, radix_sort"),
        "{e}"
    );
    let e = refused(
        "scan",
        Choice {
            key: Some("u8".into()),
            ..Choice::default()
        },
    );
    assert!(
        e.contains("unknown --key `u8` for scan: one of u32, i32"),
        "{e}"
    );
    let e = refused(
        "matmul",
        Choice {
            op: Some("sum".into()),
            ..Choice::default()
        },
    );
    assert!(e.contains("matmul takes no --op"), "{e}");
    let e = refused(
        "scan",
        Choice {
            limits: Some("tpu".into()),
            ..Choice::default()
        },
    );
    assert!(e.contains("lavapipe, llvmpipe, webgpu, gpu"), "{e}");
}

shoal_conformance::gpu_test! {
    /// `cargo xtask wgsl boids` and `splat` print the texts the families compile: every kernel of
    /// a flock and of a splatter of each packing the adapter takes is one of the printed modules,
    /// and the raster module is printed and valid.
    async fn variants_of_boids_and_splat_are_what_they_compile(gpu) {
        use shoal::Family;
        let printed = |family: &str| -> Vec<String> {
            let all = variants::of(family, &Choice::default(), false).expect(family);
            all.iter().map(|v| v.source.wgsl().expect("composes").text().to_string()).collect()
        };
        let boids = printed("boids");
        let flock = crate::Boids::new(&gpu, &crate::boids::document_flock(256)).expect("flock");
        assert_eq!(flock.kernels().len(), 2);
        for kernel in flock.kernels() {
            assert!(boids.contains(&kernel.wgsl().text().to_string()), "{kernel:?}");
        }
        let splat = printed("splat");
        let mut packings = vec![crate::splat::Packing::TwoU32];
        if gpu.has_int64_atomics() {
            packings.push(crate::splat::Packing::Int64);
        }
        for packing in packings {
            let splatter = crate::Splat::new(&gpu, Some(packing)).expect("splat");
            assert_eq!(splatter.kernels().len(), 4);
            for kernel in splatter.kernels() {
                assert!(splat.contains(&kernel.wgsl().text().to_string()), "{packing:?} {kernel:?}");
            }
        }
        let raster = variants::of("splat", &Choice::default(), false).expect("splat");
        let raster = raster.last().expect("the raster module");
        assert!(raster.config.contains("render module"), "{}", raster.config);
        assert!(raster.source.path().ends_with("splat_raster.wgsl"));
        assert_eq!(shoal::validate(&raster.source).expect("valid").len(), 0);
    }
}
