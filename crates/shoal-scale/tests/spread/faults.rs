//! Faults agree: an error on one device is the same error on every part, and nothing hangs.

use shoal::{Error, GpuOptions};
use shoal_kernels::{Op, SortOrder};
use shoal_scale::Group;

use crate::{group, words};

#[test]
fn a_part_on_another_groups_device_is_wrong_gpu() {
    let (a, b) = (
        group(2),
        Group::same_adapter(1, GpuOptions::default()).expect("device"),
    );
    let other = b.gpus()[0].buffer_from(&[1u32, 2]).expect("buffer");
    let mine = a.gpus()[0].buffer_from(&[3u32]).expect("buffer");
    let err = a.spread(vec![mine, other]).expect_err("a foreign part");
    assert!(
        matches!(&err, Error::WrongGpu { what, .. } if what.contains("part 1")),
        "{err}"
    );

    // Parts in the wrong order are on the wrong devices too.
    let spread = a.split(&[1u32, 2, 3], &[1, 2]).expect("split");
    let swapped = a.spread(
        spread
            .into_parts()
            .into_iter()
            .rev()
            .map(|p| p.buffer)
            .collect(),
    );
    assert!(matches!(swapped, Err(Error::WrongGpu { .. })));

    let c = group(3);
    let spread = a.split(&[1u32, 2], &[1, 1]).expect("split");
    let err = c
        .reduce(&spread, Op::Sum)
        .expect_err("two parts for three devices");
    assert!(
        matches!(
            &err,
            Error::Length {
                expected: 3,
                got: 2,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn an_error_on_one_device_is_every_parts_error() {
    // The third device has 2 KiB of shared memory: a histogram of 1024 bins fits on
    // the others and not there.
    let options = GpuOptions::default();
    let full = shoal::Gpu::blocking().expect("device");
    let mut small = full.adapter().expect("adapter").limits();
    small.max_compute_workgroup_storage_size = 2048;
    let small = pollster::block_on(shoal::Gpu::with_options(GpuOptions {
        limits: Some(small),
        ..options.clone()
    }))
    .expect("a device with less shared memory");
    let group = Group::new(vec![full.clone(), full, small]).expect("group");
    let data = words(3000, 9);
    let spread = group.split_even(&data).expect("split");
    let err = group
        .histogram(&spread, 1024)
        .expect_err("too many bins on device 2");
    match &err {
        Error::InvalidParameter {
            kernel,
            parameter,
            rule,
            ..
        } => {
            assert_eq!(kernel, "Histogram");
            assert!(
                parameter.contains("bins") && rule.contains("1 to 512"),
                "{err}"
            );
        }
        other => panic!("expected InvalidParameter, got {other}"),
    }
    // Each member's result is the agreed one: run the members by hand and compare.
    let statuses = group.run(|comm, rank| {
        Ok(shoal_scale::histogram_part(
            comm,
            &group.members()[rank],
            &spread.parts()[rank],
            1024,
        ))
    });
    let statuses = statuses.expect("the members ran");
    assert!(
        statuses.iter().all(|s| s.as_ref().err() == Some(&err)),
        "{statuses:?}"
    );
    // The sort's counters do not fit in 2 KiB either: its refusal is every part's error too.
    let err = group
        .sort(spread.clone(), SortOrder::Ascending)
        .expect_err("sort");
    assert!(err.to_string().contains("shared memory"), "{err}");
    // And the group still works afterwards.
    assert_eq!(
        group
            .histogram(&spread, 16)
            .expect("16 bins")
            .iter()
            .sum::<u32>(),
        3000
    );
}
