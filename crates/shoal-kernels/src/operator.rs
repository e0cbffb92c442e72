//! [`Operator`]: an associative operation written in WGSL, and [`Operation`]: what a scan or
//! reduction combines with, a built-in [`Op`] or an operator.

use shoal::{Error, Result, Source};

use crate::value::Value;
use crate::wgsl::Op;

/// An associative operation written in WGSL: a value type `T`, an identity and a combination.
///
/// The WGSL defines `fn identity() -> T` and `fn combine(a: T, b: T) -> T`, and may declare the
/// structs and helper functions they use; `T` is the scan's [`Value`] type (the kernels write
/// `alias T = …;` before it). `combine` must be associative, `identity()` must be its identity on
/// both sides, and neither may have side effects. It is never assumed commutative: the kernels
/// combine elements only in their order. A WGSL error names the operator and the line in
/// `wgsl`. In the browser, float literals must stay inside `f32` as naga re-emits them: write
/// `1e30`, not `3.40282347e38` (which Chromium's compiler reads as past `f32::MAX`).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Operator, Record, Scan, ScanArgs, ScanSpec};
/// // The last non-zero value so far (forward fill): associative, not commutative.
/// const LAST: Operator = Operator::new("last non-zero", "
/// fn identity() -> T { return 0u; }
/// fn combine(a: T, b: T) -> T { return select(a, b, b != 0u); }
/// ");
/// let gpu = shoal::Gpu::blocking()?;
/// let (input, output) = (gpu.buffer_from(&[0u32, 5, 0, 0, 7, 0])?, gpu.buffer_zeroed::<u32>(6)?);
/// let spec = ScanSpec::inclusive(LAST);
/// Scan::<u32>::new(&gpu)?.run(ScanArgs { input: &input, output: &output, spec })?;
/// assert_eq!(output.read_blocking()?, [0, 5, 5, 5, 7, 7]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operator {
    name: &'static str,
    wgsl: &'static str,
}

impl Operator {
    /// An operator called `name` (in errors and labels) defined by `wgsl`. The text is kept by
    /// reference, so operators are constants; one built at run time can be leaked
    /// (`String::leak`) once and kept.
    pub const fn new(name: &'static str, wgsl: &'static str) -> Self {
        Self { name, wgsl }
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Its WGSL.
    pub fn wgsl(&self) -> &'static str {
        self.wgsl
    }

    /// A typed error naming the operator when its WGSL leaves out `identity` or `combine`:
    /// otherwise the kernel's own code would fail to find them, and naga's message would point
    /// inside Shoal's scan.
    fn check_contract(&self, kernel: &str) -> Result<()> {
        let code = without_comments(self.wgsl);
        let missing: Vec<&str> = [
            ("identity", "fn identity() -> T"),
            ("combine", "fn combine(a: T, b: T) -> T"),
        ]
        .into_iter()
        .filter(|(name, _)| !defines(&code, name))
        .map(|(_, signature)| signature)
        .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(Error::Wgsl {
            kernel: kernel.to_string(),
            message: format!(
                "operator `{}` does not define `{}`: an operator defines `fn identity() -> T` and \
                 `fn combine(a: T, b: T) -> T` (T is the scan's value type)",
                self.name,
                missing.join("` or `")
            ),
        })
    }
}

/// `wgsl` with its `//` and `/* */` comments blanked (block comments nest in WGSL).
fn without_comments(wgsl: &str) -> String {
    let (mut out, mut depth, mut line_comment) = (String::new(), 0u32, false);
    let mut chars = wgsl.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        if line_comment {
            // WGSL's line breaks, all of which end a line comment.
            line_comment = !matches!(
                c,
                '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
            );
        } else if c == '/' && next == Some('*') {
            chars.next();
            depth += 1;
        } else if depth > 0 && c == '*' && next == Some('/') {
            chars.next();
            depth -= 1;
        } else if depth == 0 && c == '/' && next == Some('/') {
            line_comment = true;
        } else if depth == 0 {
            out.push(c);
            continue;
        }
        out.push(' ');
    }
    out
}

/// Whether `code` (without comments) declares a function `name`: `fn`, `name`, then `(`.
fn defines(code: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices("fn").any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let rest = &code[at + 2..];
        if before.is_some_and(ident) || !rest.starts_with(char::is_whitespace) {
            return false;
        }
        rest.trim_start()
            .strip_prefix(name)
            .is_some_and(|r| r.trim_start().starts_with('('))
    })
}

/// What a [`Scan`](crate::Scan) or [`Reduce`](crate::Reduce) combines with: a built-in [`Op`]
/// or an [`Operator`]; either converts into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// Sum, min or max: commutative, so a reduction may fold elements in any order (and with
    /// subgroup operations).
    Builtin(Op),
    /// A user's operator: elements are combined only in their order.
    Custom(Operator),
}

impl Default for Operation {
    fn default() -> Self {
        Operation::Builtin(Op::Sum)
    }
}

impl From<Op> for Operation {
    fn from(op: Op) -> Self {
        Operation::Builtin(op)
    }
}

impl From<Operator> for Operation {
    fn from(op: Operator) -> Self {
        Operation::Custom(op)
    }
}

impl Operation {
    /// Whether the kernels must combine elements in their order (not assume commutativity).
    pub(crate) fn ordered(self) -> bool {
        matches!(self, Operation::Custom(_))
    }

    /// The `value` block: the value type's helpers and `alias T`, generated because the type is
    /// the caller's (`T::WGSL`, a scalar, a vector or a user's struct).
    pub(crate) fn value_block<T: Value>() -> String {
        format!("{}alias T = {};\n", T::WGSL_HELPERS, T::WGSL)
    }

    /// The `op` block for `T` (with `subgroups`, the subgroup form of a built-in operation), or
    /// the typed error of a built-in operation on a struct. `kernel` names the family in it. A
    /// user's operator is its own text; a built-in one is generated, its identity a literal of
    /// `T` (`0u`, `vec2<f32>(infinity())`, …) and its combination the operation's expression
    /// and subgroup function: three lines that vary with both the type and the operation.
    pub(crate) fn op_block<T: Value>(self, kernel: &str, subgroups: bool) -> Result<Source> {
        let op = match self {
            Operation::Custom(o) => {
                o.check_contract(kernel)?;
                return Ok(Source::new(format!("operator `{}`", o.name), o.wgsl));
            }
            Operation::Builtin(op) => op,
        };
        let Some([sum, min, max]) = T::builtin_identities() else {
            return Err(Error::Wgsl {
                kernel: kernel.to_string(),
                message: format!(
                    "{op:?} is defined for scalars and vectors; `{}` is a struct: give an Operator that combines it",
                    T::WGSL
                ),
            });
        };
        let (identity, combine, subgroup) = match op {
            Op::Sum => (sum, "a + b", "subgroupAdd"),
            Op::Min => (min, "min(a, b)", "subgroupMin"),
            Op::Max => (max, "max(a, b)", "subgroupMax"),
        };
        let mut s = format!(
            "fn identity() -> T {{ return {identity}; }}\nfn combine(a: T, b: T) -> T {{ return {combine}; }}\n"
        );
        if subgroups {
            s.push_str(&format!(
                "fn subgroup_combine(x: T) -> T {{ return {subgroup}(x); }}\n"
            ));
        }
        Ok(Source::new("<built-in operation>", s))
    }
}

#[cfg(test)]
mod tests;
