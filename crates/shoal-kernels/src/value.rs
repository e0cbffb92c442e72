//! [`Value`]: what a scan or reduction can carry: a 32-bit scalar, a vector of them, or a struct
//! that a user [`Operator`](crate::Operator) declares in WGSL.

use shoal::Element;

/// How the kernels may move a [`Value`] between invocations, which decides the paths open to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A 32-bit scalar (`u32`, `i32`, `f32`): every path, including loads of four at a time.
    Scalar,
    /// A vector of `n` 32-bit scalars (`vec2<u32>`, `vec4<f32>`, …): subgroup shuffles move it
    /// whole and the look-back carries it as `n` words, but there is no four-at-a-time load.
    Vector(u32),
    /// Anything else (a WGSL struct): WGSL's subgroup operations and `bitcast` take only scalars
    /// and vectors, so it takes the shared-memory tiles and the multi-level strategy.
    Struct,
}

impl Shape {
    /// 32-bit words the look-back carries the value in (0 for a struct, which it cannot carry).
    pub(crate) fn words(self) -> u32 {
        match self {
            Shape::Scalar => 1,
            Shape::Vector(n) => n,
            Shape::Struct => 0,
        }
    }
}

/// A value type of [`Scan`](crate::Scan) and [`Reduce`](crate::Reduce).
///
/// Implemented for `u32`, `i32`, `f32` and glam's two- and four-component vectors of them
/// (`UVec2`, `IVec4`, `Vec2`, …). For a struct, implement it with [`Shape::Struct`] and the name
/// of the WGSL struct that the [`Operator`](crate::Operator) declares; its Rust layout must be
/// the WGSL one (derive `encase::ShaderType`), which Shoal checks when the buffer is bound.
///
/// ```
/// use shoal_kernels::{Shape, Value};
/// #[derive(Clone, Copy, Debug, encase::ShaderType)]
/// struct Range { lo: u32, hi: u32, count: u32 }
/// impl Value for Range {
///     const WGSL: &'static str = "Range";
///     const SHAPE: Shape = Shape::Struct;
///     type Wide = Self;
/// }
/// ```
///
/// A type that implements neither is a compile error naming it in one line:
///
/// ```compile_fail
/// # fn f(gpu: &shoal::Gpu) -> Result<(), shoal::Error> {
/// let scan = shoal_kernels::Scan::<f64>::new(gpu)?; // `f64` is not a `Value`
/// # Ok(()) }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `Value` a scan or reduction carries",
    label = "not a `Value`",
    note = "values are u32, i32, f32 and glam's two- and four-component vectors of them; \
            implement `Value` for a struct the `Operator` declares in WGSL"
)]
pub trait Value: Element + Copy + std::fmt::Debug + Send + Sync + 'static {
    /// The WGSL type: `u32`, `vec2<f32>`, or the name of a struct the operator declares.
    const WGSL: &'static str;
    /// How the kernels may move it.
    const SHAPE: Shape;
    /// Four values as one WGSL type (`vec4<T>` of a scalar) where [`Shape::Scalar`]; the value
    /// itself otherwise (never bound).
    type Wide: Element + std::fmt::Debug;
    /// WGSL placed before the type alias (a scalar's helpers for its identities).
    const WGSL_HELPERS: &'static str = "";
    /// WGSL literals of the identities of the built-in sum, min and max, where they apply.
    fn builtin_identities() -> Option<[String; 3]> {
        None
    }
}

macro_rules! scalar_value {
    ($t:ty, $wgsl:literal, $wide:ty, [$sum:literal, $min:literal, $max:literal], $helpers:expr) => {
        impl Value for $t {
            const WGSL: &'static str = $wgsl;
            const SHAPE: Shape = Shape::Scalar;
            type Wide = $wide;
            const WGSL_HELPERS: &'static str = $helpers;
            fn builtin_identities() -> Option<[String; 3]> {
                Some([$sum.into(), $min.into(), $max.into()])
            }
        }
    };
}

// WGSL has no literal for i32::MIN (-2147483648i is a negated out-of-range literal), nor one for
// infinity (`infinity()` in the file).
const F32_HELPERS: &str = include_str!("../wgsl/f32_infinity.wgsl");
scalar_value!(
    u32,
    "u32",
    shoal::glam::UVec4,
    ["0u", "4294967295u", "0u"],
    ""
);
scalar_value!(
    i32,
    "i32",
    shoal::glam::IVec4,
    ["0i", "2147483647i", "(-2147483647i - 1i)"],
    ""
);
scalar_value!(
    f32,
    "f32",
    shoal::glam::Vec4,
    ["0.0f", "infinity()", "-infinity()"],
    F32_HELPERS
);

macro_rules! vector_value {
    ($t:ty, $scalar:ty, $n:literal) => {
        impl Value for $t {
            const WGSL: &'static str = concat!("vec", $n, "<", stringify!($scalar), ">");
            const SHAPE: Shape = Shape::Vector($n);
            type Wide = Self;
            const WGSL_HELPERS: &'static str = <$scalar as Value>::WGSL_HELPERS;
            fn builtin_identities() -> Option<[String; 3]> {
                let scalar = <$scalar as Value>::builtin_identities()?;
                Some(scalar.map(|s| format!("{}({s})", Self::WGSL)))
            }
        }
    };
}

vector_value!(shoal::glam::UVec2, u32, 2);
vector_value!(shoal::glam::UVec4, u32, 4);
vector_value!(shoal::glam::IVec2, i32, 2);
vector_value!(shoal::glam::IVec4, i32, 4);
vector_value!(shoal::glam::Vec2, f32, 2);
vector_value!(shoal::glam::Vec4, f32, 4);
