//! What naga's module shows and WGSL cannot say: a block laid out otherwise than WGSL lays out
//! its struct (explicit offsets, std140 strides), and row-major matrices that are stored to.
//!
//! naga's SPIR-V front end keeps glslang's offsets and strides in the module, and its WGSL
//! writer drops them: WGSL has no offsets, so the struct it writes is laid out WGSL's way. Every
//! difference would move data silently, so each is refused here.

use naga::proc::Layouter;
use naga::{AddressSpace, Handle, Module, StorageAccess, Type, TypeInner};

use crate::Error;
use crate::unsupported::{STD140_ARRAY, code_lines, find_word, unsupported};

pub(crate) const LAYOUT: (&str, &str) = (
    "a member offset or array stride other than WGSL's (`layout(offset = …)`, \
     `layout(align = …)`, std140 in a `buffer` block, a std140 struct followed by a member)",
    "a struct laid out WGSL's way: members at their natural offsets (padding as members or \
     `@size`/`@align`), arrays at their element's stride (std430's, but `vec3` takes 16 bytes)",
);
pub(crate) const ROW_MAJOR: (&str, &str) = (
    "a `row_major` matrix in a block the kernel may write, in an array or a struct inside the \
     block, or one that is not square (naga transposes a row-major matrix loaded by itself, not \
     one stored nor one inside a whole array or struct it loads)",
    "a column-major `matCxR<f32>` (store `transpose(m)` where the GLSL stored `m`); a square \
     `row_major` matrix that is a member of a `uniform` or `readonly` block itself translates",
);

/// Refuses the module's blocks that WGSL would lay out differently: std140 arrays of scalars in
/// uniforms, any other offset or stride WGSL's layout does not give, and row-major matrices
/// other than square ones that are members of a read-only block's own struct (`spirv` is
/// glslang's output, which has the row-major decorations).
pub(crate) fn check_module(
    path: &str,
    text: &str,
    spirv: &[u8],
    module: &Module,
) -> Result<(), Error> {
    let mut layouter = Layouter::default();
    if layouter.update(module.to_ctx()).is_err() {
        return Ok(());
    }
    let row_major = row_major_members(spirv);
    let lines = code_lines(text);
    for (_, var) in module.global_variables.iter() {
        let host_shared = matches!(
            var.space,
            AddressSpace::Uniform | AddressSpace::Storage { .. } | AddressSpace::Immediate
        );
        if !host_shared {
            continue;
        }
        let block = module.types[var.ty].name.clone().unwrap_or_default();
        let line = || block_line(&lines, &block);
        if var.space == AddressSpace::Uniform && narrow_array(module, &layouter, var.ty) {
            return Err(unsupported(path, line(), STD140_ARRAY, None));
        }
        if let Some(difference) = difference(module, &layouter, var.ty, "") {
            let detail = format!("block `{block}`: {difference}");
            return Err(unsupported(path, line(), LAYOUT, Some(detail)));
        }
        let writable = matches!(var.space, AddressSpace::Storage { access } if access.contains(StorageAccess::STORE));
        if let Some(member) = misplaced_row_major(module, var.ty, writable, &row_major) {
            let line = line().or_else(|| find_word(&lines, &["row_major"], |_| true));
            let detail = format!("block `{block}`, member `{member}`");
            return Err(unsupported(path, line, ROW_MAJOR, Some(detail)));
        }
    }
    Ok(())
}

/// The line declaring the block `name` (`buffer B {`, or `B` alone with `{` on the next line).
fn block_line(lines: &[String], name: &str) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    find_word(lines, &[name], |rest| {
        let rest = rest.trim_start();
        rest.is_empty() || rest.starts_with('{')
    })
    .or_else(|| find_word(lines, &[name], |_| true))
}

/// Whether `ty` holds an array whose stride is larger than WGSL's for its element (std140 padding).
fn narrow_array(module: &Module, layouter: &Layouter, ty: Handle<Type>) -> bool {
    match &module.types[ty].inner {
        TypeInner::Array { base, stride, .. } => {
            layouter[*base].to_stride() < *stride || narrow_array(module, layouter, *base)
        }
        TypeInner::Struct { members, .. } => {
            members.iter().any(|m| narrow_array(module, layouter, m.ty))
        }
        _ => false,
    }
}

/// The first member offset or array stride in `ty` (reached as `at`) that WGSL's layout does not
/// give, described.
fn difference(module: &Module, layouter: &Layouter, ty: Handle<Type>, at: &str) -> Option<String> {
    match &module.types[ty].inner {
        TypeInner::Struct { members, .. } => {
            let mut end = 0;
            for (index, member) in members.iter().enumerate() {
                let name = member
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("member {index}"));
                let name = if at.is_empty() {
                    name
                } else {
                    format!("{at}.{name}")
                };
                let natural = layouter[member.ty].alignment.round_up(end);
                if member.offset != natural {
                    return Some(format!(
                        "`{name}` at byte {}, WGSL's {natural}",
                        member.offset
                    ));
                }
                end = member.offset + layouter[member.ty].size;
                if let Some(d) = difference(module, layouter, member.ty, &name) {
                    return Some(d);
                }
            }
            None
        }
        TypeInner::Array { base, stride, .. } => {
            let natural = layouter[*base].to_stride();
            if *stride != natural {
                return Some(format!(
                    "`{at}` has elements {stride} bytes apart, WGSL's {natural}"
                ));
            }
            difference(module, layouter, *base, &format!("{at}[]"))
        }
        _ => None,
    }
}

/// The member of the block struct `ty` holding a row-major matrix naga would not transpose on
/// every load: one in a block the kernel may write, one that is not square, one in an array or
/// in a struct inside the block (naga transposes only a load of the matrix itself or of one of
/// its columns). `row_major` is the structs' names with their row-major members' indices.
fn misplaced_row_major(
    module: &Module,
    ty: Handle<Type>,
    writable: bool,
    row_major: &[(Option<String>, u32)],
) -> Option<String> {
    let t = &module.types[ty];
    let TypeInner::Struct { members, .. } = &t.inner else {
        return None;
    };
    let in_struct = |name: &Option<String>| row_major.iter().any(|(n, _)| n.is_none() || n == name);
    for (index, member) in members.iter().enumerate() {
        let label = member
            .name
            .clone()
            .unwrap_or_else(|| format!("member {index}"));
        let direct = row_major
            .iter()
            .any(|(n, i)| (n.is_none() || *n == t.name) && *i as usize == index);
        let square = matches!(
            module.types[member.ty].inner,
            TypeInner::Matrix { columns, rows, .. } if columns as u8 == rows as u8
        );
        if direct && (writable || !square) || holds_struct(module, member.ty, &in_struct) {
            return Some(label);
        }
    }
    None
}

/// Whether `ty` is or holds a struct whose name satisfies `wanted`.
fn holds_struct(
    module: &Module,
    ty: Handle<Type>,
    wanted: &dyn Fn(&Option<String>) -> bool,
) -> bool {
    let t = &module.types[ty];
    match &t.inner {
        TypeInner::Struct { members, .. } => {
            wanted(&t.name) || members.iter().any(|m| holds_struct(module, m.ty, wanted))
        }
        TypeInner::Array { base, .. } => holds_struct(module, *base, wanted),
        _ => false,
    }
}

/// SPIR-V's opcodes and decorations read here.
const OP_NAME: u32 = 5;
const OP_MEMBER_DECORATE: u32 = 72;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_MATRIX: u32 = 24;
const OP_TYPE_STRUCT: u32 = 30;
const ROW_MAJOR_DECORATION: u32 = 4;
const MATRIX_STRIDE_DECORATION: u32 = 7;

/// The instructions of the SPIR-V module `spirv` (little-endian words, as glslang writes them),
/// each as its words, opcode first.
fn instructions(spirv: &[u8]) -> Vec<Vec<u32>> {
    let words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    let mut out = Vec::new();
    let mut at = 5; // past the header
    while let Some(&first) = words.get(at) {
        let count = (first >> 16) as usize;
        if count == 0 || at + count > words.len() {
            break;
        }
        out.push(words[at..at + count].to_vec());
        at += count;
    }
    out
}

/// Why naga refused a matrix `columns` x `rows` whose columns are `stride` bytes apart, `width`
/// bytes a component: `Some(true)` for a row-major matrix that is not square (its rows are
/// that far apart), `Some(false)` for std140's 16 bytes between 2-vectors (columns, or a
/// square row-major matrix's rows), `None` where no member of `spirv` is such a matrix.
pub(crate) fn stride_is_row_major(
    spirv: &[u8],
    stride: u32,
    columns: u8,
    rows: u8,
    width: u8,
) -> Option<bool> {
    let instructions = instructions(spirv);
    let op = |i: &Vec<u32>| i[0] & 0xffff;
    let find = |opcode: u32, id: u32| {
        instructions
            .iter()
            .find(|i| op(i) == opcode && i.get(1) == Some(&id))
    };
    let member_type = |structure: u32, member: u32| {
        find(OP_TYPE_STRUCT, structure).and_then(|s| s.get(2 + member as usize).copied())
    };
    // (columns, rows) of the matrix type `id`.
    let shape = |id: u32| {
        let matrix = find(OP_TYPE_MATRIX, id)?;
        let vector = find(OP_TYPE_VECTOR, *matrix.get(2)?)?;
        Some((*matrix.get(3)?, *vector.get(3)?))
    };
    let mut found = None;
    for i in &instructions {
        if op(i) != OP_MEMBER_DECORATE || i.get(3) != Some(&MATRIX_STRIDE_DECORATION) {
            continue;
        }
        if i.get(4) != Some(&stride) {
            continue;
        }
        let (structure, member) = (i[1], i[2]);
        let Some((c, r)) = member_type(structure, member).and_then(shape) else {
            continue;
        };
        if (c, r) != (u32::from(columns), u32::from(rows)) {
            continue;
        }
        let expected = if rows == 2 { 2 } else { 4 } * u32::from(width);
        if stride == expected {
            continue;
        }
        let row_major = instructions.iter().any(|d| {
            op(d) == OP_MEMBER_DECORATE
                && d.get(1..4) == Some(&[structure, member, ROW_MAJOR_DECORATION][..])
        });
        if row_major && c != r {
            return Some(true);
        }
        found = Some(false);
    }
    found
}

/// The names (`OpName`) of the structs in `spirv` with their row-major members' indices; `None`
/// for a struct without a name.
fn row_major_members(spirv: &[u8]) -> Vec<(Option<String>, u32)> {
    let instructions = instructions(spirv);
    instructions
        .iter()
        .filter(|i| i[0] & 0xffff == OP_MEMBER_DECORATE && i.get(3) == Some(&ROW_MAJOR_DECORATION))
        .map(|i| {
            let name = instructions
                .iter()
                .find(|n| n[0] & 0xffff == OP_NAME && n.get(1) == Some(&i[1]))
                .map(|n| {
                    let bytes: Vec<u8> = n[2..].iter().flat_map(|w| w.to_le_bytes()).collect();
                    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                    String::from_utf8_lossy(&bytes[..end]).into_owned()
                });
            (name, i[2])
        })
        .collect()
}
