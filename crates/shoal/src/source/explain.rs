//! Errors of kernel creation about a translated GLSL or HLSL kernel, told in its own lines: by
//! then only the WGSL is left, and its notes (`notes.rs`) say where the GLSL declared each
//! `constant_id` constant and first used a subgroup operation.

use super::{Composed, Source};
use crate::Error;

/// What to do where a GLSL kernel's subgroup operations meet a device without subgroups.
const SUBGROUP_REMEDY: &str = "run it on a device with subgroups (`gpu.features()` has \
     SUBGROUP), or write the operation with `shared` memory and `barrier()`, which every device runs";

/// Values tried for a constant, to find the one whose value made an expression infinite or NaN.
const TRIED: [f64; 4] = [1.0, 2.0, 3.0, 7.0];

impl Source {
    /// `error`, raised making a kernel of this source (`composed`, with entry point `entry` and
    /// override values `constants`), naming the GLSL line where the source was translated: a
    /// missing SUBGROUP feature names the first subgroup operation, and override values naga
    /// could not apply name the `constant_id` constant whose value is at fault.
    pub(crate) fn explain(
        &self,
        error: Error,
        composed: &Composed,
        entry: Option<&str>,
        constants: &[(String, f64)],
    ) -> Error {
        match error {
            Error::MissingFeature {
                kernel,
                feature,
                adapter,
                location: None,
                remedy,
            } if feature == "SUBGROUP" && self.subgroups_line().is_some() => {
                Error::MissingFeature {
                    kernel,
                    feature,
                    adapter,
                    location: self.subgroups_line().map(str::to_string),
                    remedy: format!("{SUBGROUP_REMEDY}; {remedy}"),
                }
            }
            Error::Override { kernel, message } => {
                let message = match self.constant_at_fault(composed, entry, constants) {
                    Some((name, line)) => format!(
                        "{message}: the constant `{name}` ({line}) has a value that makes an \
                         expression on it infinite or NaN (a division by zero); {}",
                        remedy(composed, name)
                    ),
                    None => message,
                };
                Error::Override { kernel, message }
            }
            other => other,
        }
    }

    /// The `constant_id` constant (name, `file:line`) which, given another value, lets naga
    /// apply the overrides: the one whose value (given or default) is at fault.
    fn constant_at_fault(
        &self,
        composed: &Composed,
        entry: Option<&str>,
        constants: &[(String, f64)],
    ) -> Option<(&str, &str)> {
        self.constant_lines().into_iter().find(|(name, _)| {
            TRIED.iter().any(|&value| {
                let mut tried: Vec<(String, f64)> = constants
                    .iter()
                    .filter(|(n, _)| n != name)
                    .cloned()
                    .collect();
                tried.push((name.to_string(), value));
                crate::reflect::reflect(composed, entry, &tried).is_ok()
            })
        })
    }
}

/// How to give the constant `name` another value: per kernel where the WGSL keeps it an
/// `override`, at translation where the translation fixed it.
fn remedy(composed: &Composed, name: &str) -> String {
    let is_override = composed
        .text
        .lines()
        .any(|l| l.trim_start().starts_with(&format!("override {name}:")));
    if is_override {
        format!(
            "give it a value with `gpu.kernel_builder(source).constant(\"{name}\", …)`, or \
             change its default in the shader"
        )
    } else {
        format!(
            "give it a value at translation (`GlslOptions::constant(\"{name}\", …)`, `glsl!(…, \
             constant = \"{name}=…\")`), or change its default in the shader"
        )
    }
}
