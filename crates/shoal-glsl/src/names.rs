//! Bindings and overrides keep their GLSL names in the WGSL, which Shoal binds and sets by.
//!
//! naga's WGSL writer names everything through its namer, which renames a name that ends in a
//! digit (`input_data0` → `input_data0_`), one WGSL predeclares (`select` → `select_`), one it
//! reserves (`target` → `target_`), and the second of two equal names (`count` → `count_1`, the
//! first taken by a parameter). Here: whatever else in the module is called like a binding or
//! override is renamed before writing, so the namer gives the GLSL name to the binding; and the
//! namer's suffix is taken off afterwards where nothing else in the WGSL is called by the GLSL
//! name (a predeclared name the kernel does not use may be declared: WGSL lets a declaration
//! hide it). A binding whose GLSL name WGSL cannot declare (a reserved word such as `target`, or
//! a predeclared name the kernel uses, such as `select` beside a `mix(a, b, flag)`) keeps the
//! namer's `name_` ([`alias_for`] says which when that is taken) and is listed in the
//! translation's aliases, which Shoal binds by the GLSL name. An override so named is refused.

use naga::proc::{CaseInsensitiveKeywordSet, NameKey, Namer};
use naga::{Handle, Module};

use crate::Error;
use crate::unsupported::{code_lines, find_word, unsupported};

pub(crate) const NAME: (&str, &str) = (
    "a `constant_id` constant whose name WGSL cannot spell",
    "another name: WGSL reserves words such as `target`, `module`, `type`, `var` and `fn`, and a \
     name the translated kernel also uses for a WGSL built-in (`select`, `read`, `min`, …) \
     would hide that built-in (a binding so named is renamed and bound by its GLSL name)",
);

/// A binding or override whose WGSL name must be its GLSL name.
pub(crate) struct Wanted {
    key: Key,
    name: String,
}

#[derive(Clone, Copy)]
enum Key {
    Global(Handle<naga::GlobalVariable>),
    Override(Handle<naga::Override>),
}

impl Key {
    fn name_key(self) -> NameKey {
        match self {
            Self::Global(h) => NameKey::GlobalVariable(h),
            Self::Override(h) => NameKey::Override(h),
        }
    }
}

/// The base naga's namer makes of an identifier: leading digits and trailing `_` dropped, runs
/// of `_` made one; two names with one base are told apart by a suffix.
fn base(name: &str) -> String {
    let trimmed = name
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches('_');
    let mut out = String::with_capacity(trimmed.len());
    for c in trimmed.chars() {
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    out
}

/// Whether WGSL can declare `name`: an identifier, neither reserved nor `_`, nor starting `__`.
fn spellable(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !name.starts_with("__")
        && !naga::keywords::wgsl::RESERVED.contains(&name)
}

fn refuse(path: &str, text: &str, name: &str, why: &str) -> Error {
    let line = find_word(&code_lines(text), &[name], |_| true);
    unsupported(path, line, NAME, Some(format!("`{name}`: {why}")))
}

/// The bindings and overrides of `module` by their GLSL names, after refusing a name WGSL
/// reserves and renaming whatever else in the module the namer would give such a name first.
pub(crate) fn prepare(path: &str, text: &str, module: &mut Module) -> Result<Vec<Wanted>, Error> {
    let mut wanted = Vec::new();
    for (handle, var) in module.global_variables.iter() {
        if let (Some(_), Some(name)) = (&var.binding, &var.name) {
            wanted.push(Wanted {
                key: Key::Global(handle),
                name: name.clone(),
            });
        }
    }
    for (handle, o) in module.overrides.iter() {
        if let Some(name) = &o.name {
            wanted.push(Wanted {
                key: Key::Override(handle),
                name: name.clone(),
            });
        }
    }
    wanted.retain(|w| !w.name.is_empty());
    // A binding named by a reserved word is aliased (see `restore`); an override is set by its
    // WGSL name, which must be the GLSL one.
    let refused = |w: &Wanted| {
        !spellable(&w.name)
            && (matches!(w.key, Key::Override(_))
                || !naga::keywords::wgsl::RESERVED.contains(&w.name.as_str()))
    };
    if let Some(w) = wanted.iter().find(|w| refused(w)) {
        return Err(refuse(path, text, &w.name, "a word WGSL reserves"));
    }
    let bases: Vec<String> = wanted.iter().map(|w| base(&w.name)).collect();
    // A type renamed to another's name could equal that type, which naga's arena asserts
    // against: a new type name is no type's name yet.
    let mut type_names: Vec<String> = module
        .types
        .iter()
        .filter_map(|(_, t)| t.name.clone())
        .collect();
    let rename_among = |name: &mut Option<String>, kind: &str, taken: &[String]| {
        let Some(old) = name.as_deref() else { return };
        if !bases.contains(&base(old)) {
            return;
        }
        let mut new = format!("{old}_{kind}");
        while bases.contains(&base(&new)) || taken.contains(&new) {
            new = format!("{new}_{kind}");
        }
        *name = Some(new);
    };
    let rename = |name: &mut Option<String>, kind: &str| rename_among(name, kind, &[]);
    let types: Vec<_> = module.types.iter().map(|(h, _)| h).collect();
    for handle in types {
        let mut ty = module.types[handle].clone();
        let before = ty.name.clone();
        rename_among(&mut ty.name, "type", &type_names);
        type_names.extend(ty.name.clone());
        if ty.name != before {
            module.types.replace(handle, ty);
        }
    }
    let functions = module
        .functions
        .iter_mut()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter_mut().map(|ep| &mut ep.function));
    for function in functions {
        for argument in function.arguments.iter_mut() {
            rename(&mut argument.name, "local");
        }
        for (_, local) in function.local_variables.iter_mut() {
            rename(&mut local.name, "local");
        }
    }
    for (_, function) in module.functions.iter_mut() {
        rename(&mut function.name, "fn");
    }
    for (_, var) in module.global_variables.iter_mut() {
        if var.binding.is_none() {
            rename(&mut var.name, "global");
        }
    }
    for (_, constant) in module.constants.iter_mut() {
        rename(&mut constant.name, "const");
    }
    Ok(wanted)
}

/// `wgsl` (written from `module`) with each wanted binding and override under its GLSL name,
/// and the aliases `(GLSL name, WGSL name)` of the bindings WGSL cannot call so.
pub(crate) fn restore(
    path: &str,
    text: &str,
    module: &Module,
    mut wgsl: String,
    wanted: &[Wanted],
) -> Result<(String, Vec<(String, String)>), Error> {
    // The names the WGSL writer gave, by the same namer and keywords.
    let mut names = naga::FastHashMap::default();
    Namer::default().reset(
        module,
        &naga::keywords::wgsl::RESERVED_SET,
        &naga::keywords::wgsl::BUILTIN_IDENTIFIER_SET,
        CaseInsensitiveKeywordSet::empty(),
        &["__", "_naga"],
        &mut names,
    );
    let written: Vec<Option<&String>> = wanted
        .iter()
        .map(|w| names.get(&w.key.name_key()).filter(|n| **n != w.name))
        .collect();
    // Aliased: a reserved word, or a predeclared name the WGSL uses for the built-in (which the
    // other renames, introducing GLSL names only, do not change); a GLSL name the namer gave
    // another binding (`N_1` to `N_`) is that one's until it is renamed.
    let aliased: Vec<bool> = (0..wanted.len())
        .map(|i| {
            let name = &wanted[i].name;
            written[i].is_some()
                && (naga::keywords::wgsl::RESERVED.contains(&name.as_str())
                    || (!written.contains(&Some(name))
                        && !occurrences(&wgsl, name, false).is_empty()))
        })
        .collect();
    let mut aliases = Vec::new();
    for (i, w) in wanted.iter().enumerate() {
        let Some(from) = written[i].filter(|_| aliased[i]) else {
            continue;
        };
        if matches!(w.key, Key::Override(_)) {
            return Err(refuse(
                path,
                text,
                &w.name,
                "the translated kernel uses the word for a WGSL built-in",
            ));
        }
        let to = alias_for(from, &wgsl, wanted);
        replace(&mut wgsl, from, &to, false);
        aliases.push((w.name.clone(), to));
    }
    for (i, w) in wanted.iter().enumerate() {
        if let Some(from) = written[i].filter(|_| !aliased[i]) {
            // A member naga renamed alike (`input_data0_`) had the GLSL name too: WGSL can
            // declare it (members have a namespace of their own), and `from`, ending in `_`, is
            // no swizzle.
            let members = *from == format!("{}_", w.name);
            replace(&mut wgsl, from, &w.name, members);
        }
    }
    Ok((wgsl, aliases))
}

/// The WGSL name of a binding the namer wrote `written` (`target_` for `target`): that, unless
/// a binding or override has it as its GLSL name, else the first of `written_1`, `written_2`, …
/// that neither has nor the WGSL uses.
fn alias_for(written: &str, wgsl: &str, wanted: &[Wanted]) -> String {
    let free = |n: &str| !wanted.iter().any(|w| w.name == n);
    if free(written) {
        return written.to_string();
    }
    (1..)
        .map(|k| format!("{written}_{k}"))
        .find(|n| free(n) && occurrences(wgsl, n, true).is_empty())
        .unwrap_or_else(|| written.to_string())
}

/// `wgsl` with every occurrence of the identifier `from` (see [`occurrences`]) made `to`.
fn replace(wgsl: &mut String, from: &str, to: &str, members: bool) {
    for start in occurrences(wgsl, from, members).into_iter().rev() {
        wgsl.replace_range(start..start + from.len(), to);
    }
}

/// The byte offsets of `word` in `wgsl` as an identifier naga's WGSL writer declared or a
/// predeclared one: whole words, not after `@` (an attribute), and unless `members`, not after
/// `.` (a member or swizzle) nor a member's name in a struct (members have a namespace of their
/// own; their types count).
fn occurrences(wgsl: &str, word: &str, members: bool) -> Vec<usize> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut in_struct = false;
    let mut line_start = 0;
    for line in wgsl.split_inclusive('\n') {
        let trimmed = line.trim();
        // naga writes `struct S {`, a line per member (`name: type,`) and `}`.
        let mut from = 0;
        if in_struct {
            if trimmed == "}" {
                in_struct = false;
            } else if !members {
                from = line.find(':').map_or(line.len(), |colon| colon + 1);
            }
        } else if trimmed.starts_with("struct ") && trimmed.ends_with('{') {
            in_struct = true;
        }
        while let Some(found) = line[from..].find(word) {
            let start = from + found;
            let end = start + word.len();
            let before = line[..start].chars().next_back();
            let after = line[end..].chars().next();
            if before.is_none_or(|c| !is_ident(c) && c != '@' && (members || c != '.'))
                && after.is_none_or(|c| !is_ident(c))
            {
                out.push(line_start + start);
            }
            from = end;
        }
        line_start += line.len();
    }
    out
}
