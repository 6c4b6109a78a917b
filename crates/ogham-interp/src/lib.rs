//! The reference interpreter: runs core-IR programs directly. It is the
//! oracle every compiled backend is tested against, so it implements the
//! IR's documented semantics plainly — and fast enough to run real tests.
//!
//! Entry: [`run_entry`] takes an entry point's source-level arguments as
//! [`Value`]s and returns its outputs. Arrays are flat typed buffers shared
//! by reference count ([`value`]); array primitives live in [`arrays`],
//! statements and control flow in [`eval`], the SOACs in [`soac`].
//!
//! Run-time failures (bounds, division by zero, failed assertions, bad entry
//! arguments) are [`RuntimeError`]s carrying the failing statement's span.
//! Bounds are always checked, even under `#[unsafe]`: the interpreter never
//! reads outside a buffer.

pub mod arrays;
mod eval;
mod soac;
pub mod value;

use rustc_hash::FxHashMap as HashMap;
use std::fmt;

use ogham_data::Value;
use ogham_ir::{FunDef, PrimValue, Program, Span, SubExp, Type};

use crate::eval::Interp;
use crate::value::Val;

/// A run-time error, reported at the span of the statement whose check failed.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeError {
    pub message: String,
    pub span: Span,
    /// The calls that led there, innermost first (the spans of the `apply`
    /// statements), for the backtrace.
    pub trace: Vec<Span>,
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuntimeError {}

/// Stack for the interpreter thread: evaluation recurses once per nested
/// body and per call, and deep recursion in the program must not overflow.
const INTERPRETER_STACK_BYTES: usize = 512 << 20;

/// How to run an entry point ([`run_entry_with`]).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Convert the outputs to values; when false the results are dropped
    /// (so outputs without an external form are no error) and no values are returned.
    pub results: bool,
    /// Tuning parameters set for the run (`#[param(name)]`); the others take their defaults.
    pub tuning: HashMap<String, i64>,
    /// An opaque input (a record or tuple) is given as its parts, one
    /// argument each, as FutharkScript builds a record argument from the
    /// values of a call's results (the server's `new`).
    pub parts: bool,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions { results: true, tuning: HashMap::default(), parts: false }
    }
}

/// Runs entry point `entry` of `prog` on `args` (one per source-level input)
/// and returns its outputs (one per source-level output).
pub fn run_entry(prog: &Program, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, RuntimeError> {
    run_entry_with(prog, entry, args, &RunOptions::default())
}

/// [`run_entry`] with options.
pub fn run_entry_with(
    prog: &Program,
    entry: &str,
    args: Vec<Value>,
    opts: &RunOptions,
) -> Result<Vec<Value>, RuntimeError> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("ogham-interp".to_string())
            .stack_size(INTERPRETER_STACK_BYTES)
            .spawn_scoped(scope, move || {
                // Calls may use the stack down to a margin above its end
                // (`eval::stack_exhausted`).
                let top = 0u8;
                eval::set_stack_budget(std::hint::black_box(&top), INTERPRETER_STACK_BYTES - (32 << 20));
                run_entry_on_this_thread_with(prog, entry, args, opts)
            });
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Err(RuntimeError {
                    message: format!("internal error: the interpreter panicked: {what}"),
                    span: Span::default(),
                    trace: Vec::new(),
                })
            }),
            Err(e) => Err(RuntimeError {
                message: format!("internal error: cannot start the interpreter thread: {e}"),
                span: Span::default(),
                trace: Vec::new(),
            }),
        }
    })
}

/// [`run_entry`] on the calling thread's stack (usable where threads are not wanted).
pub fn run_entry_on_this_thread(prog: &Program, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, RuntimeError> {
    run_entry_on_this_thread_with(prog, entry, args, &RunOptions::default())
}

fn run_entry_on_this_thread_with(
    prog: &Program,
    entry: &str,
    args: Vec<Value>,
    opts: &RunOptions,
) -> Result<Vec<Value>, RuntimeError> {
    run_located(prog, entry, args, opts).map_err(|e| in_source(prog, e))
}

/// The error with its span and trace resolved to source positions (an
/// inlined statement's span stands for its place in the inlined function
/// and the calls it was copied to).
fn in_source(prog: &Program, e: RuntimeError) -> RuntimeError {
    let mut frames = prog.frames(e.span);
    for call in &e.trace {
        frames.extend(prog.frames(*call));
    }
    if frames.is_empty() {
        return RuntimeError { span: Span::DUMMY, trace: Vec::new(), ..e };
    }
    let span = frames.remove(0);
    RuntimeError { message: e.message, span, trace: frames }
}

fn run_located(prog: &Program, entry: &str, args: Vec<Value>, opts: &RunOptions) -> Result<Vec<Value>, RuntimeError> {
    let no_span = |message: String| RuntimeError { message, span: Span::default(), trace: Vec::new() };
    let (index, fun) = prog
        .funs
        .iter()
        .enumerate()
        .find(|(_, f)| f.name == entry && f.entry.is_some())
        .ok_or_else(|| no_span(format!("No entry point named \"{entry}\".")))?;
    let error = |message: String| RuntimeError { message, span: fun.span, trace: Vec::new() };
    let params = bind_entry_arguments(fun, args, opts.parts).map_err(error)?;
    let mut interp = Interp::new(prog);
    interp.tuning = opts.tuning.clone();
    // The constants, as a compiled program computes them when it starts.
    for stm in &prog.consts {
        interp.exec_stm(stm)?;
    }
    let mut results = interp.call(index, params).map_err(|f| f.at(fun.span))?;
    if !opts.results {
        return Ok(Vec::new());
    }
    let outputs = fun.entry.as_ref().map(|e| e.outputs.as_slice()).unwrap_or(&[]);
    let mut values = Vec::with_capacity(outputs.len());
    for output in outputs {
        // As in Futhark: primitives and arrays print as themselves, tuples of
        // them one component after another; other opaque values (named
        // records, sum types) have no external form.
        let parts: &[usize] = match (&output.parts[..], &output.opaque) {
            ([_], None) => &output.parts,
            (parts, Some(ogham_ir::Opaque::Record { fields })) if printable_tuple(fields) => parts,
            _ => {
                return Err(error(format!("Values of type \"{}\" have no external representation.", output.type_name)))
            }
        };
        for &part in parts {
            let value = results
                .get_mut(part)
                .map(std::mem::take)
                .ok_or_else(|| error(format!("internal error: entry point has no result number {part}")))?;
            values.push(value.into_value().map_err(error)?);
        }
    }
    Ok(values)
}

/// Whether a record is a tuple (fields `0`, `1`, …) of primitives, arrays
/// of primitives and such tuples: the opaque values Futhark prints.
fn printable_tuple(fields: &[(String, String, usize)]) -> bool {
    fields.iter().enumerate().all(|(i, (name, type_name, _))| {
        let elem = type_name.trim_start_matches("[]");
        *name == i.to_string() && (ogham_prim::PrimType::from_name(elem).is_some() || type_name.starts_with('('))
    })
}

/// The entry function's parameter values: the inputs, type-checked, plus the
/// size parameters read off the shapes of the array inputs.
fn bind_entry_arguments(fun: &FunDef, args: Vec<Value>, by_parts: bool) -> Result<Vec<Val>, String> {
    let inputs = fun.entry.as_ref().map(|e| e.inputs.as_slice()).unwrap_or(&[]);
    if by_parts {
        let wanted: usize = inputs.iter().map(|i| i.parts.len()).sum();
        if args.len() != wanted {
            return Err(format!(
                "Entry point \"{}\" takes {wanted} value(s) in all, but {} were given.",
                fun.name,
                args.len()
            ));
        }
        let mut bound: Vec<Option<Val>> = vec![None; fun.params.len()];
        let parts = inputs.iter().flat_map(|i| i.parts.iter().map(move |p| (i, *p)));
        for ((input, part), arg) in parts.zip(args) {
            let param = fun.params.get(part).ok_or_else(|| format!("internal error: no parameter number {part}"))?;
            if !value_fits(&param.ty, &arg) {
                return Err(format!(
                    "Expected a part of input of type {} but got value of type {}.",
                    input.type_name,
                    arg.value_type()
                ));
            }
            bound[part] = Some(Val::from_value(arg));
        }
        return bind_sizes(fun, bound);
    }
    if args.len() != inputs.len() {
        return Err(format!(
            "Entry point \"{}\" takes {} argument(s), but {} were given.",
            fun.name,
            inputs.len(),
            args.len()
        ));
    }
    let mut bound: Vec<Option<Val>> = vec![None; fun.params.len()];
    for (input, arg) in inputs.iter().zip(args) {
        let part = match (&input.parts[..], &input.opaque) {
            ([part], None) => *part,
            _ => {
                let i = inputs.iter().position(|x| std::ptr::eq(x, input)).unwrap_or(0);
                return Err(format!("Cannot read input #{i} of type {}", input.type_name));
            }
        };
        let param = fun.params.get(part).ok_or_else(|| format!("internal error: no parameter number {part}"))?;
        let fits = value_fits(&param.ty, &arg);
        if !fits {
            return Err(format!(
                "Expected input of type {} but got value of type {}.",
                input.type_name,
                arg.value_type()
            ));
        }
        bound[part] = Some(Val::from_value(arg));
    }
    bind_sizes(fun, bound)
}

/// Whether an argument value has the type of an IR parameter.
fn value_fits(ty: &Type, arg: &Value) -> bool {
    match (ty, arg) {
        (Type::Prim(t), Value::Scalar(v)) => v.prim_type() == *t,
        (Type::Array { elem, shape }, Value::Array(a)) => a.elem_type() == *elem && a.rank() == shape.len(),
        _ => false,
    }
}

/// The size parameters of the entry function, read off the shapes of the
/// bound array parameters (which must agree with every size they name).
fn bind_sizes(fun: &FunDef, mut bound: Vec<Option<Val>>) -> Result<Vec<Val>, String> {
    // Sizes: every dimension naming a parameter must agree with the argument's shape.
    let position = |v: ogham_ir::VName| fun.params.iter().position(|p| p.name == v);
    let invalid = || "Entry point arguments have invalid sizes.".to_string();
    for (k, param) in fun.params.iter().enumerate() {
        let actual: Vec<i64> = match &bound[k] {
            Some(Val::Array(a)) => a.shape.clone(),
            _ => continue,
        };
        for (dim, &size) in param.ty.shape().iter().zip(&actual) {
            match dim {
                SubExp::Const(c) => {
                    if c.as_i64() != size {
                        return Err(invalid());
                    }
                }
                SubExp::Var(v) => {
                    let Some(j) = position(*v) else { continue };
                    match &bound[j] {
                        Some(Val::Prim(p)) if p.as_i64() == size => {}
                        Some(_) => return Err(invalid()),
                        None => bound[j] = Some(Val::Prim(PrimValue::I64(size))),
                    }
                }
            }
        }
    }
    bound
        .into_iter()
        .zip(&fun.params)
        .map(|(v, p)| {
            v.ok_or_else(|| format!("Entry point size parameter {} is not determined by any argument.", p.name.0))
        })
        .collect()
}
