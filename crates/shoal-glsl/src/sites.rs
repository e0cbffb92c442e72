//! Where a kernel declares its `constant_id` constants and first uses a subgroup operation, in
//! the GLSL as written: the translation reports them (`Translation::constants`,
//! `Translation::subgroups`) for the errors Shoal gives when it makes the kernel, where only
//! the WGSL is left.

/// Each `constant_id` constant's GLSL name and the 1-based line declaring it, from the lines
/// with comments blanked (`layout(constant_id = 0) const uint N = 64;`: the word before the `=`
/// after the layout's `)`).
pub(crate) fn constants(lines: &[String]) -> Vec<(String, usize)> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(at) = line.find("constant_id") else {
            continue;
        };
        let rest = &line[at..];
        let Some(close) = rest.find(')') else {
            continue;
        };
        let declaration = rest[close + 1..].split('=').next().unwrap_or_default();
        if let Some(name) = declaration
            .split(|c: char| !is_ident(c))
            .rfind(|w| !w.is_empty())
        {
            out.push((name.to_string(), index + 1));
        }
    }
    out
}

/// The 1-based line of the first subgroup operation or built-in (`subgroupAdd`,
/// `subgroupBarrier`, `gl_SubgroupSize`, `gl_NumSubgroups`, …) in the lines with comments
/// blanked; the `#extension` lines naming them are no use.
pub(crate) fn first_subgroup_use(lines: &[String]) -> Option<usize> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    lines
        .iter()
        .position(|line| {
            !line.trim_start().starts_with('#')
                && line.split(|c: char| !is_ident(c)).any(|w| {
                    (w.starts_with("subgroup") && w.len() > "subgroup".len())
                        || w.starts_with("gl_Subgroup")
                        || w == "gl_NumSubgroups"
                })
        })
        .map(|index| index + 1)
}
