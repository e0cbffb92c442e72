//! Specialization constants naga's SPIR-V front end cannot read, made readable in glslang's
//! SPIR-V before naga parses it.
//!
//! glslang folds arithmetic on `constant_id` constants (`totalCount / 4`) into a global
//! `OpSpecConstantOp`, which naga 30 does not read. Where such an expression is used only inside
//! functions, it is computed there instead (an instruction at the top of each function using it),
//! so the `constant_id` constants stay WGSL `override`s and the expression becomes an ordinary
//! expression on them. Where a type needs the value (an array sized `[MAX_LOD + 1]` or `[N]`), it
//! is fixed when translating: every `constant_id` constant it depends on becomes a plain constant
//! whose value is the one given in [`Options::constants`](crate::Options) or else its default, and
//! the expression is evaluated. A work-group size from `local_size_x_id` is reported by the
//! override's name, for the WGSL's `@workgroup_size`.

use std::collections::{BTreeMap, BTreeSet};

const OP_NAME: u32 = 5;
const OP_EXECUTION_MODE: u32 = 16;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_ARRAY: u32 = 28;
const OP_CONSTANT_TRUE: u32 = 41;
const OP_CONSTANT_FALSE: u32 = 42;
const OP_CONSTANT: u32 = 43;
const OP_CONSTANT_COMPOSITE: u32 = 44;
const OP_SPEC_TRUE: u32 = 48;
const OP_SPEC_FALSE: u32 = 49;
const OP_SPEC: u32 = 50;
const OP_SPEC_COMPOSITE: u32 = 51;
const OP_SPEC_OP: u32 = 52;
const OP_FUNCTION: u32 = 54;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const OP_LABEL: u32 = 248;
const DECORATION_SPEC_ID: u32 = 1;
/// `OpNop`, one word: marks an instruction removed (glslang writes none).
const NOP: u32 = 1 << 16;
const DECORATION_BUILT_IN: u32 = 11;
const BUILT_IN_WORKGROUP_SIZE: u32 = 25;
const EXECUTION_MODE_LOCAL_SIZE: u32 = 17;

/// What the pass made of the module.
#[derive(Debug, Default)]
pub(crate) struct Specialized {
    /// The SPIR-V naga reads.
    pub(crate) words: Vec<u32>,
    /// Per work-group dimension, the override (by its GLSL name) that sizes it.
    pub(crate) workgroup: [Option<String>; 3],
    /// The constants fixed at translation, by GLSL name, with their values.
    pub(crate) fixed: Vec<(String, i64)>,
}

/// Why the pass could not evaluate a constant fixed at translation: its GLSL name.
#[derive(Debug)]
pub(crate) struct Unevaluable(pub(crate) String);

fn opcode(inst: &[u32]) -> u32 {
    inst[0] & 0xffff
}

/// The words of a literal string operand starting at `words[0]`.
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Rewrites `spirv` (glslang's output) so naga reads its specialization constants;
/// `values` are the values given for `constant_id` constants by GLSL name.
pub(crate) fn specialize(
    spirv: &[u8],
    values: &[(String, i64)],
) -> Result<Specialized, Unevaluable> {
    let words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if words.len() < 5 {
        return Ok(Specialized {
            words,
            ..Default::default()
        });
    }
    let mut insts: Vec<Vec<u32>> = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return Ok(Specialized {
                words,
                ..Default::default()
            });
        }
        insts.push(words[at..at + count].to_vec());
        at += count;
    }
    let mut bound = words[3];
    let first_function = insts
        .iter()
        .position(|i| opcode(i) == OP_FUNCTION)
        .unwrap_or(insts.len());
    let mut names = BTreeMap::new();
    let mut defs = BTreeMap::new();
    let mut int_types = BTreeMap::new();
    let mut bool_types = BTreeSet::new();
    let mut workgroup_composite = None;
    for (index, inst) in insts.iter().enumerate().take(first_function) {
        match opcode(inst) {
            OP_NAME => {
                names.insert(inst[1], string(&inst[2..]));
            }
            OP_TYPE_INT => {
                int_types.insert(inst[1], inst[3] != 0);
            }
            OP_TYPE_BOOL => {
                bool_types.insert(inst[1]);
            }
            OP_SPEC_TRUE | OP_SPEC_FALSE | OP_SPEC | OP_SPEC_COMPOSITE | OP_SPEC_OP => {
                defs.insert(inst[2], index);
            }
            OP_DECORATE
                if inst[2] == DECORATION_BUILT_IN
                    && inst.get(3) == Some(&BUILT_IN_WORKGROUP_SIZE) =>
            {
                workgroup_composite = Some(inst[1]);
            }
            _ => {}
        }
    }
    unify_workgroup_size(&mut insts, &mut defs, &names, workgroup_composite);
    // The spec constants a type or another global needs: fixed, with all they depend on.
    let mut fixed = BTreeSet::new();
    let mut stack: Vec<u32> = Vec::new();
    for inst in insts.iter().take(first_function) {
        let operands: &[u32] = match opcode(inst) {
            OP_TYPE_ARRAY => &inst[3..4],
            OP_CONSTANT_COMPOSITE | OP_VARIABLE => &inst[3..],
            _ => &[],
        };
        stack.extend(operands.iter().filter(|id| defs.contains_key(id)));
    }
    while let Some(id) = stack.pop() {
        if !fixed.insert(id) {
            continue;
        }
        let inst = &insts[defs[&id]];
        let operands: &[u32] = match opcode(inst) {
            OP_SPEC_OP => &inst[4..],
            OP_SPEC_COMPOSITE => &inst[3..],
            _ => &[],
        };
        stack.extend(operands.iter().filter(|id| defs.contains_key(id)));
    }
    // Values of the fixed ones, in definition order.
    let mut value: BTreeMap<u32, i64> = BTreeMap::new();
    // Plain integer constants, which the expressions use beside the specialization constants.
    let mut known: BTreeMap<u32, i64> = BTreeMap::new();
    for inst in insts.iter().take(first_function) {
        if opcode(inst) == OP_CONSTANT
            && inst.len() == 4
            && let Some(&signed) = int_types.get(&inst[1])
        {
            known.insert(
                inst[2],
                if signed {
                    i64::from(inst[3] as i32)
                } else {
                    i64::from(inst[3])
                },
            );
        }
    }
    let composites: BTreeMap<u32, Vec<u32>> = insts
        .iter()
        .take(first_function)
        .filter(|i| matches!(opcode(i), OP_SPEC_COMPOSITE | OP_CONSTANT_COMPOSITE))
        .map(|i| (i[2], i[3..].to_vec()))
        .collect();
    let mut out = Specialized::default();
    let mut in_order: Vec<(u32, usize)> = defs.iter().map(|(&id, &i)| (id, i)).collect();
    in_order.sort_by_key(|&(_, i)| i);
    for (id, index) in in_order {
        if !fixed.contains(&id) {
            continue;
        }
        let inst = &insts[index];
        let name = names.get(&id).cloned().unwrap_or_default();
        let given = values.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        let signed = int_types.get(&inst[1]).copied().unwrap_or(false);
        let v = match opcode(inst) {
            OP_SPEC_TRUE => given.unwrap_or(1),
            OP_SPEC_FALSE => given.unwrap_or(0),
            OP_SPEC => given.unwrap_or(if signed {
                i64::from(inst[3] as i32)
            } else {
                i64::from(inst[3])
            }),
            OP_SPEC_OP => evaluate(inst, &known, &composites)
                .ok_or_else(|| Unevaluable(expression_name(&insts, &defs, &names, id)))?,
            _ => continue,
        };
        value.insert(id, v);
        known.insert(id, v);
        if matches!(opcode(inst), OP_SPEC_TRUE | OP_SPEC_FALSE | OP_SPEC) && !name.is_empty() {
            out.fixed.push((name, v));
        }
    }
    for (&id, &v) in &value {
        let inst = &mut insts[defs[&id]];
        *inst = match opcode(inst) {
            _ if bool_types.contains(&inst[1]) => {
                vec![
                    (3 << 16)
                        | if v != 0 {
                            OP_CONSTANT_TRUE
                        } else {
                            OP_CONSTANT_FALSE
                        },
                    inst[1],
                    id,
                ]
            }
            _ => vec![(4 << 16) | OP_CONSTANT, inst[1], id, v as u32],
        };
    }
    for &id in &fixed {
        let inst = &mut insts[defs[&id]];
        if opcode(inst) == OP_SPEC_COMPOSITE {
            inst[0] = (inst[0] & 0xffff_0000) | OP_CONSTANT_COMPOSITE;
        }
    }
    // Removed instructions become `OpNop` until the end, so the indices in `defs` hold.
    for inst in insts.iter_mut() {
        if opcode(inst) == OP_DECORATE
            && inst[2] == DECORATION_SPEC_ID
            && value.contains_key(&inst[1])
        {
            *inst = vec![NOP];
        }
    }
    // The work-group size: the overrides by name, the fixed ones into LocalSize.
    if let Some(composite) = workgroup_composite
        .and_then(|c| defs.get(&c))
        .map(|&i| insts[i].clone())
        && matches!(
            opcode(&composite),
            OP_SPEC_COMPOSITE | OP_CONSTANT_COMPOSITE
        )
    {
        for (d, id) in composite[3..].iter().enumerate().take(3) {
            if let Some(&v) = value.get(id) {
                for inst in insts.iter_mut() {
                    if opcode(inst) == OP_EXECUTION_MODE && inst[2] == EXECUTION_MODE_LOCAL_SIZE {
                        inst[3 + d] = v as u32;
                    }
                }
            } else if defs.get(id).is_some_and(|&i| opcode(&insts[i]) == OP_SPEC) {
                out.workgroup[d] = names.get(id).cloned();
            }
        }
    }
    // The remaining expressions, computed in each function that uses them.
    let ops: Vec<u32> = defs
        .iter()
        .filter(|(id, i)| {
            !fixed.contains(id) && matches!(opcode(&insts[**i]), OP_SPEC_OP | OP_SPEC_COMPOSITE)
        })
        .map(|(id, _)| *id)
        .collect();
    // naga would make the composite a constant over overrides, which WGSL cannot declare.
    for inst in insts.iter_mut() {
        if opcode(inst) == OP_DECORATE && inst[2] == DECORATION_BUILT_IN && ops.contains(&inst[1]) {
            *inst = vec![NOP];
        }
    }
    if !ops.is_empty() {
        materialize(&mut insts, &defs, &ops, &mut bound);
        let removed: BTreeSet<usize> = ops.iter().map(|id| defs[id]).collect();
        insts = insts
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !removed.contains(i))
            .map(|(_, inst)| inst)
            .collect();
    }
    let mut result = words[..5].to_vec();
    result[3] = bound;
    result.extend(insts.into_iter().filter(|i| *i != [NOP]).flatten());
    out.words = result;
    Ok(out)
}

/// glslang sizes the work group from `local_size_x_id = N` through a spec constant of its own,
/// unnamed, beside the `constant_id = N` one the kernel declares: the work-group size is made to
/// use the declared one (one override, set by its name), and glslang's is dropped.
fn unify_workgroup_size(
    insts: &mut [Vec<u32>],
    defs: &mut BTreeMap<u32, usize>,
    names: &BTreeMap<u32, String>,
    composite: Option<u32>,
) {
    let Some(&at) = composite.and_then(|c| defs.get(&c)) else {
        return;
    };
    if opcode(&insts[at]) != OP_SPEC_COMPOSITE {
        return;
    }
    let spec_id = |insts: &[Vec<u32>], id: u32| {
        insts
            .iter()
            .find(|i| opcode(i) == OP_DECORATE && i[1] == id && i[2] == DECORATION_SPEC_ID)
            .and_then(|i| i.get(3).copied())
    };
    for k in 3..insts[at].len() {
        let id = insts[at][k];
        let named = |i: &u32| names.get(i).is_some_and(|n| !n.is_empty());
        if named(&id) || defs.get(&id).is_none_or(|&i| opcode(&insts[i]) != OP_SPEC) {
            continue;
        }
        let Some(n) = spec_id(insts, id) else {
            continue;
        };
        let declared = defs
            .iter()
            .find(|(other, i)| {
                named(other) && opcode(&insts[**i]) == OP_SPEC && spec_id(insts, **other) == Some(n)
            })
            .map(|(other, _)| *other);
        let Some(declared) = declared else { continue };
        insts[at][k] = declared;
        // glslang uses its own only here. The declared one takes its place, before the
        // composite (it may be defined after it).
        if let Some(index) = defs.remove(&id) {
            let from = defs[&declared];
            if from > index {
                insts[index] = std::mem::replace(&mut insts[from], vec![NOP]);
                defs.insert(declared, index);
            } else {
                insts[index] = vec![NOP];
            }
        }
        for inst in insts.iter_mut() {
            if opcode(inst) == OP_DECORATE && inst[1] == id {
                *inst = vec![NOP];
            }
        }
    }
}

/// The name to report for the expression `id`: its own, or the first named constant it uses.
fn expression_name(
    insts: &[Vec<u32>],
    defs: &BTreeMap<u32, usize>,
    names: &BTreeMap<u32, String>,
    id: u32,
) -> String {
    if let Some(n) = names.get(&id).filter(|n| !n.is_empty()) {
        return n.clone();
    }
    let inst = &insts[defs[&id]];
    inst[4..]
        .iter()
        .filter(|o| defs.contains_key(o))
        .map(|&o| expression_name(insts, defs, names, o))
        .find(|n| !n.is_empty())
        .unwrap_or_default()
}

/// The value of the `OpSpecConstantOp` `inst` from its operands' `values` (32-bit integers and
/// booleans; `None` for another operation or a division by zero).
fn evaluate(
    inst: &[u32],
    values: &BTreeMap<u32, i64>,
    composites: &BTreeMap<u32, Vec<u32>>,
) -> Option<i64> {
    let op = inst[3];
    if op == 81 {
        // OpCompositeExtract of a composite constant (`gl_WorkGroupSize.x`).
        let component = composites.get(inst.get(4)?)?.get(*inst.get(5)? as usize)?;
        return values.get(component).copied();
    }
    let arg = |k: usize| inst.get(4 + k).and_then(|id| values.get(id)).copied();
    let (a, b) = (arg(0), arg(1));
    let u = |v: i64| v as u32;
    let s = |v: i64| v as i32;
    let bool_ = |c: bool| Some(i64::from(c));
    match op {
        128 => Some(i64::from(u(a?).wrapping_add(u(b?)))),
        130 => Some(i64::from(u(a?).wrapping_sub(u(b?)))),
        132 => Some(i64::from(u(a?).wrapping_mul(u(b?)))),
        134 => u(a?).checked_div(u(b?)).map(i64::from),
        135 => s(a?).checked_div(s(b?)).map(i64::from),
        137 => u(a?).checked_rem(u(b?)).map(i64::from),
        138 | 139 => s(a?).checked_rem(s(b?)).map(i64::from),
        126 => Some(i64::from(s(a?).wrapping_neg())),
        194 => Some(i64::from(u(a?).wrapping_shr(u(b?)))),
        195 => Some(i64::from(s(a?).wrapping_shr(u(b?)))),
        196 => Some(i64::from(u(a?).wrapping_shl(u(b?)))),
        197 => Some(i64::from(u(a?) | u(b?))),
        198 => Some(i64::from(u(a?) ^ u(b?))),
        199 => Some(i64::from(u(a?) & u(b?))),
        200 => Some(i64::from(!u(a?))),
        113 | 114 => a,
        164 | 170 => bool_(u(a?) == u(b?)),
        165 | 171 => bool_(u(a?) != u(b?)),
        166 => bool_(a? != 0 || b? != 0),
        167 => bool_(a? != 0 && b? != 0),
        168 => bool_(a? == 0),
        169 => Some(if a? != 0 { b? } else { arg(2)? }),
        172 => bool_(u(a?) > u(b?)),
        173 => bool_(s(a?) > s(b?)),
        174 => bool_(u(a?) >= u(b?)),
        175 => bool_(s(a?) >= s(b?)),
        176 => bool_(u(a?) < u(b?)),
        177 => bool_(s(a?) < s(b?)),
        178 => bool_(u(a?) <= u(b?)),
        179 => bool_(s(a?) <= s(b?)),
        _ => None,
    }
}

/// Whether word `position` of an instruction with opcode `op` (met in a function body) is a
/// literal, not an id: the instructions glslang writes that carry literals among their operands.
fn is_literal(op: u32, position: usize) -> bool {
    match op {
        // OpCompositeExtract, OpCompositeInsert, OpVectorShuffle: literal indices at the end.
        81 => position >= 4,
        82 => position >= 5,
        79 => position >= 5,
        // OpLoad / OpStore: memory operands.
        61 => position >= 4,
        62 => position >= 3,
        // OpExtInst: the instruction number.
        12 => position == 4,
        // OpSwitch: (literal, label) pairs after selector and default.
        251 => position >= 3 && (position - 3).is_multiple_of(2),
        // OpSelectionMerge, OpLoopMerge: control masks.
        247 => position >= 2,
        246 => position >= 3,
        // OpBranchConditional: weights.
        250 => position >= 4,
        // Image instructions: the image-operands mask after the coordinate (or texel).
        89 | 90 | 93 | 94 | 96 | 97 => position == 6,
        87..=98 => position == 5,
        99 => position == 4,
        // OpVariable's storage class; OpLine's line and column; OpCopyMemory's masks.
        59 => position == 3,
        8 => position >= 2,
        63 => position >= 3,
        // OpName, OpDecorate and kin never occur in functions; OpFunction's control mask.
        54 => position == 3,
        // Group operations: the scope is an id, the group operation a literal.
        342 | 349..=364 => position == 4,
        _ => false,
    }
}

/// The instruction computing a global `OpSpecConstantOp` or `OpSpecConstantComposite` inside a
/// function: its opcode and operands (after the result type and id).
fn expression(spec: &[u32]) -> (u32, &[u32]) {
    match opcode(spec) {
        OP_SPEC_COMPOSITE => (80, &spec[3..]),
        _ => (spec[3], &spec[4..]),
    }
}

/// Defines each of `ops` (global `OpSpecConstantOp`s) anew at the top of every function using
/// it, under a fresh id, and points that function's uses at it.
fn materialize(
    insts: &mut Vec<Vec<u32>>,
    defs: &BTreeMap<u32, usize>,
    ops: &[u32],
    bound: &mut u32,
) {
    let mut start = 0;
    while let Some(f) = insts[start..]
        .iter()
        .position(|i| opcode(i) == OP_FUNCTION)
        .map(|p| p + start)
    {
        let end = insts[f..]
            .iter()
            .position(|i| opcode(i) == 56)
            .map_or(insts.len(), |p| p + f);
        // The expressions this function uses, and those they use, in definition order.
        let mut needed = BTreeSet::new();
        let mut stack: Vec<u32> = insts[f..end]
            .iter()
            .flat_map(|i| i[1..].iter().copied())
            .filter(|w| ops.contains(w))
            .collect();
        while let Some(id) = stack.pop() {
            if needed.insert(id) {
                stack.extend(
                    expression(&insts[defs[&id]])
                        .1
                        .iter()
                        .filter(|w| ops.contains(w)),
                );
            }
        }
        if needed.is_empty() {
            start = end + 1;
            continue;
        }
        let mut renamed = BTreeMap::new();
        let mut defined = Vec::new();
        let mut order: Vec<u32> = needed.into_iter().collect();
        order.sort_by_key(|id| defs[id]);
        for id in order {
            let spec = &insts[defs[&id]];
            let (op, operands) = expression(spec);
            let new = *bound;
            *bound += 1;
            let mut inst = vec![0, spec[1], new];
            // Literal operands (CompositeExtract's indices) must not be renamed.
            inst.extend(
                operands
                    .iter()
                    .enumerate()
                    .map(|(k, w)| match renamed.get(w) {
                        Some(&n) if !is_literal(op, 3 + k) => n,
                        _ => *w,
                    }),
            );
            inst[0] = ((inst.len() as u32) << 16) | op;
            renamed.insert(id, new);
            defined.push(inst);
        }
        for inst in &mut insts[f..end] {
            let op = opcode(inst);
            for (k, w) in inst.iter_mut().enumerate().skip(1) {
                if !is_literal(op, k)
                    && let Some(&n) = renamed.get(w)
                {
                    *w = n;
                }
            }
        }
        // After the first block's label and its variables.
        let label = insts[f..end]
            .iter()
            .position(|i| opcode(i) == OP_LABEL)
            .map_or(end, |p| p + f);
        let mut at = label + 1;
        while at < end && opcode(&insts[at]) == OP_VARIABLE {
            at += 1;
        }
        let count = defined.len();
        for (k, inst) in defined.into_iter().enumerate() {
            insts.insert(at + k, inst);
        }
        start = end + count + 1;
    }
}
