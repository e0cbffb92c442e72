//! Append and consume buffers as Shoal's append buffers (`shoal::AppendBuffer`): one binding,
//! a 16-byte header (the counter, the capacity, two words of padding) and the items from byte
//! 16. [`rewrite`](super::rewrite) gave each buffer a counter binding of its own and the code
//! of `Append` / `Consume`; here, in the WGSL naga wrote, the counter becomes the header of the
//! buffer's binding: an append past the capacity writes nothing and is counted (as
//! `AppendBuffer` reports), a consume of an empty buffer returns a zeroed item and gives the
//! counter back, so it never wraps.

use super::rewrite::AppendBuffer;
use crate::Error;

/// `wgsl` with each of `buffers` made one binding with its header.
pub(crate) fn finish(
    path: &str,
    mut wgsl: String,
    buffers: &[AppendBuffer],
) -> Result<String, Error> {
    let mut structs = String::new();
    for buffer in buffers {
        let failed = |what: &str| Error::Translate {
            message: format!(
                "{path}: could not make `{}` an append buffer: {what} not found in naga's WGSL",
                buffer.name
            ),
        };
        // glslang drops a buffer the entry point does not use, and its counter with it.
        let Some((header_decl, header_type)) = declaration(&wgsl, &buffer.header) else {
            continue;
        };
        let (_, items_type) =
            declaration(&wgsl, &buffer.name).ok_or_else(|| failed("the binding"))?;
        let (header_member, header_array) =
            only_member(&wgsl, &header_type).ok_or_else(|| failed("the counter's struct"))?;
        let (items_member, items_array) =
            only_member(&wgsl, &items_type).ok_or_else(|| failed("the items' struct"))?;
        let word = if header_array.contains("atomic<") {
            "atomic<i32>"
        } else {
            "i32"
        };
        let appended = format!("ShoalAppend_{}", buffer.name);
        structs.push_str(&format!(
            "\n// `{name}`: Shoal's append buffer (`AppendBuffer`): the counter, the capacity and \
             two words of padding, then the items.\nstruct {appended} {{\n    header: array<{word}, 4>,\n    items: {items_array},\n}}\n",
            name = buffer.name
        ));
        wgsl.replace_range(header_decl, "");
        let (decl, _) = declaration(&wgsl, &buffer.name).ok_or_else(|| failed("the binding"))?;
        let line = &wgsl[decl.clone()];
        let typed = line.replacen(&format!(": {items_type};"), &format!(": {appended};"), 1);
        wgsl.replace_range(decl, &typed);
        wgsl = replace_access(
            &wgsl,
            &buffer.header,
            &header_member,
            &buffer.name,
            "header",
        );
        wgsl = replace_access(&wgsl, &buffer.name, &items_member, &buffer.name, "items");
    }
    wgsl.push_str(&structs);
    Ok(wgsl)
}

/// The byte range of `var<storage, read_write> name: T;` with its `@group … @binding …` before
/// it (naga writes them on the line above), and `T`.
fn declaration(wgsl: &str, name: &str) -> Option<(std::ops::Range<usize>, String)> {
    let head = format!("var<storage, read_write> {name}: ");
    let at = wgsl.find(&head)?;
    let ty_start = at + head.len();
    let end = ty_start + wgsl[ty_start..].find(';')?;
    let ty = wgsl[ty_start..end].to_string();
    let line_start = wgsl[..at].rfind('\n').map_or(0, |n| n + 1);
    let start = match wgsl[..line_start.saturating_sub(1)].rfind('\n') {
        Some(n) if wgsl[n + 1..line_start].trim_start().starts_with("@group") => n + 1,
        None if wgsl[..line_start].trim_start().starts_with("@group") => 0,
        _ => at,
    };
    let end = end + 1 + usize::from(wgsl[end + 1..].starts_with('\n'));
    Some((start..end, ty))
}

/// The member name and type of the struct `ty`, which has one member.
fn only_member(wgsl: &str, ty: &str) -> Option<(String, String)> {
    let head = format!("struct {ty} {{");
    let at = wgsl.find(&head)? + head.len();
    let body = &wgsl[at..at + wgsl[at..].find('}')?];
    let mut members = body.lines().map(str::trim).filter(|l| !l.is_empty());
    let member = members.next()?;
    if members.next().is_some() {
        return None;
    }
    let (name, ty) = member.trim_end_matches(',').split_once(':')?;
    Some((name.trim().to_string(), ty.trim().to_string()))
}

/// `wgsl` with every `var.member` (whole identifiers) written `new_var.new_member`.
fn replace_access(wgsl: &str, var: &str, member: &str, new_var: &str, new_member: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let pattern = format!("{var}.{member}");
    let mut out = String::with_capacity(wgsl.len());
    let mut rest = wgsl;
    while let Some(at) = rest.find(&pattern) {
        let end = at + pattern.len();
        let whole = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !is_ident(c) && c != '.')
            && rest[end..].chars().next().is_none_or(|c| !is_ident(c));
        out.push_str(&rest[..at]);
        if whole {
            out.push_str(&format!("{new_var}.{new_member}"));
        } else {
            out.push_str(&pattern);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}
