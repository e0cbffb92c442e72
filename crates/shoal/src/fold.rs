//! `.invocations(n)`'s work groups: `ceil(n / work-group invocations)` folded over x, y and z
//! within the device's per-dimension limit, and kept within the u32 global index.

use crate::error::{Error, Result};
use crate::reflect::Reflection;

/// The work groups of `.invocations(n)`: `ceil(n / work-group invocations)` folded over y and z
/// where x cannot hold them, for a kernel that can rebuild its index from such a fold.
pub(crate) fn linear_groups(name: &str, r: &Reflection, n: u64, max: [u32; 3]) -> Result<[u32; 3]> {
    let invocations = u64::from(r.workgroup_invocations());
    let needed = n.div_ceil(invocations);
    let most = (1u64 << 32) / invocations.max(1);
    let groups = fold(needed, max)
        .map(|g| snug(g, needed, max, most))
        .ok_or_else(|| {
            // The fold that did not fit: whole x and y, and the planes it would need.
            let plane = u64::from(max[0].max(1)) * u64::from(max[1].max(1));
            let planes = needed.div_ceil(plane).min(u32::MAX as u64) as u32;
            Error::TooManyGroups {
                kernel: name.to_string(),
                groups: [max[0], max[1], planes],
                dimension: 2,
                limit: max[2],
                remedy: "even folded over y and z the count does not fit: split the work into \
                several dispatches"
                    .into(),
            }
        })?;
    // WGSL's index is a u32 (shoal_linear_index's too): past 2^32 launched invocations (the
    // fold may launch more than n) an index wraps and passes the kernel's bound check.
    let launched = groups.iter().map(|&g| u64::from(g)).product::<u64>() * invocations;
    if launched > 1 << 32 {
        return Err(Error::InvalidParameter {
            kernel: name.to_string(),
            parameter: "invocations".into(),
            value: n.to_string(),
            rule: format!(
                "a 1D dispatch numbers its invocations with a u32, so at most 2^32 = 4294967296 \
                 may run, and this one would run {launched} (its work groups folded to \
                 {groups:?}); split the work into several dispatches"
            ),
        });
    }
    if groups[1] > 1 || groups[2] > 1 {
        log::debug!("shoal: `{name}`: {n} invocations folded to {groups:?} work groups");
    }
    // A kernel that reads only its x coordinates would run the folded groups' elements again
    // and leave the rest unwritten, without an error anywhere: refused instead.
    if (groups[1] > 1 || groups[2] > 1) && !r.fold_safe {
        return Err(Error::TooManyGroups {
            kernel: name.to_string(),
            groups: [needed.min(u32::MAX as u64) as u32, 1, 1],
            dimension: 0,
            limit: max[0],
            remedy: format!(
                ".invocations({n}) folds them over y and z, but entry point `{}` takes its \
                 position (global_invocation_id or workgroup_id) without \
                 @builtin(num_workgroups), so it cannot rebuild its index from the fold (it would \
                 run some elements twice and others never): `#import shoal::fold` and index with \
                 shoal_linear_index(wid, nwg, local_index, WG), or give .groups([x, y, z]) \
                 yourself (a kernel that takes its position only to print it, and claims its \
                 work otherwise, takes @builtin(num_workgroups) to say the fold is safe)",
                r.entry_point
            ),
        });
    }
    Ok(groups)
}

/// Spreads `groups` work groups over x, then y, then z, each within `max`; `None` when even
/// `max.x × max.y × max.z` is too few.
pub(crate) fn fold(groups: u64, max: [u32; 3]) -> Option<[u32; 3]> {
    let [mx, my, mz] = max.map(|m| m.max(1) as u64);
    if groups <= mx {
        return Some([groups as u32, 1, 1]);
    }
    let rows = groups.div_ceil(mx);
    if rows <= my {
        let x = groups.div_ceil(rows);
        return Some([x as u32, rows as u32, 1]);
    }
    let planes = rows.div_ceil(my);
    if planes > mz {
        return None;
    }
    Some([mx as u32, rows.div_ceil(planes) as u32, planes as u32])
}

/// `folded` ([`fold`]'s shape for `groups` work groups) when it launches at most `most` groups;
/// otherwise the first 2D shape with more rows that holds `groups` within `most`, if any. The
/// fold makes x as wide as the rows allow and may overshoot by up to a row: near 2^32
/// invocations that overshoot alone would pass the u32 index, where narrower rows fit exactly
/// (2^26 groups of 64 fold to 65473 x 1025 but fit as 32768 x 2048).
fn snug(folded: [u32; 3], groups: u64, max: [u32; 3], most: u64) -> [u32; 3] {
    let launched = folded.iter().map(|&g| u64::from(g)).product::<u64>();
    if launched <= most || groups > most || folded[2] > 1 {
        return folded;
    }
    let (mx, my) = (u64::from(max[0].max(1)), u64::from(max[1].max(1)));
    (u64::from(folded[1])..=my)
        .find_map(|rows| {
            let x = groups.div_ceil(rows);
            (x <= mx && x * rows <= most).then_some([x as u32, rows as u32, 1])
        })
        .unwrap_or(folded)
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
    use super::{fold, snug};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Near 2^32 invocations the fold's overshoot is traded for narrower rows that fit; a fold
    /// already within the bound, and a count past it, keep the fold's shape.
    #[test]
    fn snug_folds_fit_the_u32_index() {
        let max = [65535, 65535, 65535];
        let most = (1u64 << 32) / 64;
        for groups in [most, most - 1, most - 960, most - 65_000, 40_000_000] {
            let folded = fold(groups, max).expect("fits");
            let shape = snug(folded, groups, max, most);
            let product = shape.iter().map(|&d| u64::from(d)).product::<u64>();
            assert!(
                groups <= product && product <= most,
                "{groups} -> {shape:?}"
            );
            assert!(shape.iter().all(|&d| d <= 65535), "{shape:?}");
        }
        assert_eq!(fold(most, max), Some([65473, 1025, 1]));
        assert_eq!(snug([65473, 1025, 1], most, max, most), [32768, 2048, 1]);
        assert_eq!(snug([1000, 1, 1], 1000, max, most), [1000, 1, 1]);
        assert_eq!(
            snug([65535, 1026, 1], most + 1, max, most),
            [65535, 1026, 1]
        );
    }

    #[test]
    fn folding_covers_every_group_within_limits() {
        let max = [65535, 65535, 65535];
        assert_eq!(fold(0, max), Some([0, 1, 1]));
        assert_eq!(fold(65535, max), Some([65535, 1, 1]));
        for g in [65536u64, 65535 * 3 + 1, 1 << 32, 65535u64 * 65535 + 7] {
            let f = fold(g, max).expect("fits");
            assert!(f.iter().all(|&d| d <= 65535), "{f:?}");
            assert!(
                f.iter().map(|&d| d as u64).product::<u64>() >= g,
                "{g} -> {f:?}"
            );
        }
        assert_eq!(
            fold(10, [4, 4, 4]).map(|f| f.iter().product::<u32>() >= 10),
            Some(true)
        );
        assert_eq!(fold(65, [4, 4, 4]), None);
    }
}
