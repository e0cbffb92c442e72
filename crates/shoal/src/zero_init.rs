//! Workgroup memory zeroed by the whole work group at once, for GL.
//!
//! WGSL promises that `var<workgroup>` memory starts zeroed. wgpu keeps that promise on GL
//! through naga's GLSL writer, which has invocation 0 assign each variable one constructor:
//! `sh = uint[4096](0u, 0u, …)`, written out element by element. llvmpipe compiles such a
//! constructor in minutes (the radix sort's 256-invocation ranking kernel, which compiles in
//! about a second without it) and runs it on one invocation while the others wait at the
//! barrier.
//!
//! So on GL Shoal keeps the promise itself: it rewrites the entry point of the (override-
//! resolved) naga module so that invocation `i` zeroes elements `i`, `i + W`, `i + 2W`, … of
//! every workgroup array the entry point uses (`W` the work-group size), invocation 0 zeroes
//! the variables that are not arrays, and a workgroup barrier follows; the pipeline is then
//! built from that module with wgpu's own zeroing turned off. A variable that one store per
//! element cannot zero (its elements are arrays of atomics) leaves the module to wgpu, as
//! before; so does a rewrite naga does not accept (it is validated before use).

use naga::proc::IndexableLength;
use naga::{
    AddressSpace, BinaryOperator, Binding, BuiltIn, Expression, Function, FunctionArgument, Handle,
    Literal, LocalVariable, Module, Scalar, Span, Statement, Type, TypeInner,
};

/// The resolved module with `entry`'s workgroup variables zeroed by the work group, validated,
/// or `None` when the entry point uses none, or one that cannot be zeroed by stores (see the
/// module's documentation). `resolved` has its overrides applied, and naga's analysis says which
/// globals the entry point uses.
pub(crate) fn zeroed_by_work_group(
    resolved: &crate::reflect::Resolved,
    entry: &str,
) -> Option<Module> {
    let module = &resolved.module;
    let index = module.entry_points.iter().position(|ep| ep.name == entry)?;
    let used = resolved.info.get_entry_point(index);
    // Each variable with, for an array, its element type and length (which may be written with
    // an override: naga resolves it through the module's constants).
    let vars: Vec<_> = module
        .global_variables
        .iter()
        .filter(|(h, v)| v.space == AddressSpace::WorkGroup && !used[*h].is_empty())
        .map(|(h, v)| {
            let array = match module.types[v.ty].inner {
                TypeInner::Array { base, size, .. } => match size.resolve(module.to_ctx()) {
                    Ok(IndexableLength::Known(n)) => Some((base, n)),
                    _ => return None,
                },
                _ => None,
            };
            Some((h, v.ty, array))
        })
        .collect::<Option<_>>()?;
    if vars.is_empty() {
        return None;
    }
    let mut module = module.clone();
    let width: u32 = module.entry_points[index]
        .workgroup_size
        .iter()
        .try_fold(1u32, |a, &b| a.checked_mul(b))?;
    let u32_ty = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Scalar(Scalar::U32),
        },
        Span::UNDEFINED,
    );
    let mut writer = Writer {
        types: &mut module.types,
        function: &mut module.entry_points[index].function,
        u32_ty,
        block: naga::Block::new(),
    };
    let local = writer.local_index();
    for (var, ty, array) in vars {
        let pointer = writer.expression(Expression::GlobalVariable(var));
        match array {
            Some((base, n)) => writer.zero_array(pointer, base, n, local, width)?,
            None => writer.zero_by_first(pointer, ty, local)?,
        }
    }
    writer.push(Statement::ControlBarrier(naga::Barrier::WORK_GROUP));
    let Writer {
        function, block, ..
    } = writer;
    let mut body = block;
    body.extend_block(std::mem::take(&mut function.body));
    function.body = body;
    // naga checks the rewrite as wgpu will; what it refuses is left to wgpu's zeroing.
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .ok()?;
    Some(module)
}

/// Appends expressions and statements to the prologue of one entry point.
struct Writer<'a> {
    types: &'a mut naga::UniqueArena<Type>,
    function: &'a mut Function,
    u32_ty: Handle<Type>,
    /// The prologue, put before the entry point's body.
    block: naga::Block,
}

impl Writer<'_> {
    fn push(&mut self, statement: Statement) {
        self.block.push(statement, Span::UNDEFINED);
    }

    /// An expression that needs no `Emit` (arguments, globals, locals, literals, zero values).
    fn expression(&mut self, e: Expression) -> Handle<Expression> {
        self.function.expressions.append(e, Span::UNDEFINED)
    }

    /// An expression evaluated where the prologue has got to.
    fn emitted(&mut self, e: Expression) -> Handle<Expression> {
        let h = self.function.expressions.append(e, Span::UNDEFINED);
        self.push(Statement::Emit(naga::Range::new_from_bounds(h, h)));
        h
    }

    fn literal(&mut self, v: u32) -> Handle<Expression> {
        self.expression(Expression::Literal(Literal::U32(v)))
    }

    /// `local_invocation_index`: the entry point's own argument (or struct member) when it
    /// has one, else a new argument.
    fn local_index(&mut self) -> Handle<Expression> {
        let wanted = Some(Binding::BuiltIn(BuiltIn::LocalInvocationIndex));
        for (i, arg) in self.function.arguments.iter().enumerate() {
            if arg.binding == wanted {
                return self.expression(Expression::FunctionArgument(i as u32));
            }
            if let TypeInner::Struct { members, .. } = &self.types[arg.ty].inner
                && let Some(m) = members.iter().position(|m| m.binding == wanted)
            {
                let base = self.expression(Expression::FunctionArgument(i as u32));
                return self.emitted(Expression::AccessIndex {
                    base,
                    index: m as u32,
                });
            }
        }
        self.function.arguments.push(FunctionArgument {
            name: Some("shoal_local_index".into()),
            ty: self.u32_ty,
            binding: wanted,
        });
        let i = self.function.arguments.len() as u32 - 1;
        self.expression(Expression::FunctionArgument(i))
    }

    /// Zeroes array `pointer` (`n` elements of `base`) across the work group: invocation `local`
    /// takes elements `local`, `local + width`, …
    fn zero_array(
        &mut self,
        pointer: Handle<Expression>,
        base: Handle<Type>,
        n: u32,
        local: Handle<Expression>,
        width: u32,
    ) -> Option<()> {
        // var i = local; loop { if i >= n { break; } p[i] = 0; continuing { i += width; } }
        let counter = self.function.local_variables.append(
            LocalVariable {
                name: Some("shoal_zero_index".into()),
                ty: self.u32_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let at = self.expression(Expression::LocalVariable(counter));
        self.push(Statement::Store {
            pointer: at,
            value: local,
        });
        let outer = std::mem::take(&mut self.block);
        let i = self.emitted(Expression::Load { pointer: at });
        let end = self.literal(n);
        let done = self.emitted(Expression::Binary {
            op: BinaryOperator::GreaterEqual,
            left: i,
            right: end,
        });
        self.push(Statement::If {
            condition: done,
            accept: naga::Block::from_vec(vec![Statement::Break]),
            reject: naga::Block::new(),
        });
        let element = self.emitted(Expression::Access {
            base: pointer,
            index: i,
        });
        self.zero_value(element, base)?;
        let body = std::mem::take(&mut self.block);
        let i = self.emitted(Expression::Load { pointer: at });
        let step = self.literal(width);
        let next = self.emitted(Expression::Binary {
            op: BinaryOperator::Add,
            left: i,
            right: step,
        });
        self.push(Statement::Store {
            pointer: at,
            value: next,
        });
        let continuing = std::mem::replace(&mut self.block, outer);
        self.push(Statement::Loop {
            body,
            continuing,
            break_if: None,
        });
        Some(())
    }

    /// Zeroes `pointer` (of type `ty`, not an array) on invocation 0 alone.
    fn zero_by_first(
        &mut self,
        pointer: Handle<Expression>,
        ty: Handle<Type>,
        local: Handle<Expression>,
    ) -> Option<()> {
        let zero = self.literal(0);
        let first = self.emitted(Expression::Binary {
            op: BinaryOperator::Equal,
            left: local,
            right: zero,
        });
        let outer = std::mem::take(&mut self.block);
        self.zero_value(pointer, ty)?;
        let accept = std::mem::replace(&mut self.block, outer);
        self.push(Statement::If {
            condition: first,
            accept,
            reject: naga::Block::new(),
        });
        Some(())
    }

    /// Stores zero at `pointer` (of type `ty`): one store, or one per member of a struct that
    /// holds atomics (an atomic takes its scalar's zero). `None` for arrays holding atomics.
    fn zero_value(&mut self, pointer: Handle<Expression>, ty: Handle<Type>) -> Option<()> {
        match self.types[ty].inner.clone() {
            TypeInner::Atomic(scalar) => {
                let scalar_ty = self.types.insert(
                    Type {
                        name: None,
                        inner: TypeInner::Scalar(scalar),
                    },
                    Span::UNDEFINED,
                );
                let value = self.expression(Expression::ZeroValue(scalar_ty));
                self.push(Statement::Store { pointer, value });
            }
            TypeInner::Struct { members, .. } if has_atomic(self.types, ty) => {
                for (m, member) in members.iter().enumerate() {
                    let field = self.emitted(Expression::AccessIndex {
                        base: pointer,
                        index: m as u32,
                    });
                    self.zero_value(field, member.ty)?;
                }
            }
            _ if has_atomic(self.types, ty) => return None,
            _ => {
                let value = self.expression(Expression::ZeroValue(ty));
                self.push(Statement::Store { pointer, value });
            }
        }
        Some(())
    }
}

/// Whether `ty` is or holds an atomic.
fn has_atomic(types: &naga::UniqueArena<Type>, ty: Handle<Type>) -> bool {
    match &types[ty].inner {
        TypeInner::Atomic(_) => true,
        TypeInner::Array { base, .. } | TypeInner::BindingArray { base, .. } => {
            has_atomic(types, *base)
        }
        TypeInner::Struct { members, .. } => members.iter().any(|m| has_atomic(types, m.ty)),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
