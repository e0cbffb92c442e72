//! The registry of demos: every binary, the showcase, `cargo xtask run` and the web site find the
//! demos here, so a new demo is added in one place.

/// The names of every demo, in the order the showcase and the web site list them.
pub const NAMES: &[&str] = &[
    "grid",
    "raytrace",
    "blur",
    "waves",
    "boids",
    "particles",
    "splat",
    "primitives",
];

/// Evaluates `$body` with the type alias `$D` bound to the [`Demo`](crate::demo::Demo) named
/// `$name` (one of [`NAMES`]), or `$unknown` when no demo has that name.
///
/// ```
/// let size = shoal_demos::with_demo!("grid", D => Some(<D as shoal_demos::demo::Demo>::SIZE), _ => None);
/// assert!(size.is_some());
/// ```
#[macro_export]
macro_rules! with_demo {
    ($name:expr, $D:ident => $body:expr, _ => $unknown:expr) => {
        match $name {
            "grid" => {
                type $D = $crate::grid::GridDemo;
                $body
            }
            "raytrace" => {
                type $D = $crate::raytrace::RayTraceDemo;
                $body
            }
            "blur" => {
                type $D = $crate::blur::BlurDemo;
                $body
            }
            "waves" => {
                type $D = $crate::waves::WavesDemo;
                $body
            }
            "boids" => {
                type $D = $crate::boids::BoidsDemo;
                $body
            }
            "particles" => {
                type $D = $crate::particles::ParticlesDemo;
                $body
            }
            "splat" => {
                type $D = $crate::splat::SplatDemo;
                $body
            }
            "primitives" => {
                type $D = $crate::primitives::PrimitivesDemo;
                $body
            }
            _ => $unknown,
        }
    };
}

#[cfg(test)]
mod tests {
    /// Every listed name resolves to a demo whose `NAME` is that name.
    #[test]
    fn every_name_resolves_to_its_demo() {
        for &name in super::NAMES {
            let found = crate::with_demo!(name, D => <D as crate::demo::Demo>::NAME, _ => "");
            assert_eq!(found, name);
        }
    }
}
