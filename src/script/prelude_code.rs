//! The prelude (`prelude.js`, the JavaScript half of the binding), compiled once per sandbox.
//!
//! Every step runs in a fresh QuickJS context, and parsing and compiling the prelude's 2,000
//! lines in each took about 5.7 ms of an empty step's 7 ms (release build). [`PreludeCode`]
//! compiles it once per process, to QuickJS bytecode (3.6 ms); a step's context reads that
//! bytecode back and runs it (0.8 ms). What runs is the same program: a context still gets a
//! prelude of its own, built from nothing, so nothing one step does reaches the next. The
//! bytecode holds no pointer into the runtime that made it (names are written as text), so
//! every test thread's runtime reads the same bytes.
//!
//! rquickjs 0.14 has no safe API for a script's bytecode (only a module's), so this calls
//! QuickJS's `JS_Eval` (compile only), `JS_WriteObject`, `JS_ReadObject` and `JS_EvalFunction`
//! through `rquickjs::qjs`. The bytecode never leaves the process and is made by the very
//! QuickJS that reads it.

use std::ffi::CString;
use std::sync::OnceLock;

use rquickjs::{Ctx, Error, Function, Runtime, Value, qjs};

/// The JavaScript half of the binding.
pub(super) const PRELUDE: &str = include_str!("prelude.js");

/// The file name the prelude is compiled under: stack traces name it.
const PRELUDE_FILE: &str = "prelude.js";

/// Why the prelude could not be compiled: QuickJS's error, kept as its text because every
/// sandbox of the process shares the one outcome (the error itself is not `Clone`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PreludeError {
    #[error("{0}")]
    QuickJs(String),
}

impl PreludeError {
    fn of(err: rquickjs::Error) -> Self {
        PreludeError::QuickJs(err.to_string())
    }
}

/// The prelude as QuickJS bytecode.
pub(super) struct PreludeCode {
    bytecode: Vec<u8>,
}

impl PreludeCode {
    /// The process's compiled prelude, compiled on first use; an error says why it could not be.
    pub(super) fn shared() -> Result<&'static PreludeCode, PreludeError> {
        static SHARED: OnceLock<Result<PreludeCode, PreludeError>> = OnceLock::new();
        SHARED
            .get_or_init(|| {
                let runtime = Runtime::new().map_err(PreludeError::of)?;
                PreludeCode::compile(&runtime).map_err(PreludeError::of)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Compiles the prelude in a context of `runtime` made for it (a global script, not in
    /// strict mode, as step code is).
    fn compile(runtime: &Runtime) -> rquickjs::Result<Self> {
        let context = rquickjs::Context::full(runtime)?;
        context.with(|ctx| {
            let source = CString::new(PRELUDE)?;
            let file = CString::new(PRELUDE_FILE)?;
            let raw = ctx.as_raw().as_ptr();
            let flags = qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_COMPILE_ONLY;
            // SAFETY: `raw` is `ctx`'s live context; `source` ends with the NUL QuickJS's
            // parser needs after the `len` bytes it is given; the returned value is owned and
            // is freed below (an exception value holds nothing).
            let compiled = unsafe {
                qjs::JS_Eval(
                    raw,
                    source.as_ptr(),
                    PRELUDE.len() as _,
                    file.as_ptr(),
                    flags as i32,
                )
            };
            // SAFETY: a plain tag read.
            if unsafe { qjs::JS_IsException(compiled) } {
                return Err(Error::Exception);
            }
            let mut len = 0;
            // SAFETY: `compiled` is the live function QuickJS just compiled in this context;
            // the buffer QuickJS allocates is copied, then freed with QuickJS's allocator, and
            // `compiled` freed once.
            let bytecode = unsafe {
                let buffer =
                    qjs::JS_WriteObject(raw, &mut len, compiled, qjs::JS_WRITE_OBJ_BYTECODE as i32);
                qjs::JS_FreeValue(raw, compiled);
                if buffer.is_null() {
                    return Err(Error::Exception);
                }
                let bytecode = std::slice::from_raw_parts(buffer, len as usize).to_vec();
                qjs::js_free(raw, buffer.cast());
                bytecode
            };
            Ok(Self { bytecode })
        })
    }

    /// Runs the prelude in `ctx` (a step's fresh context): answers the function it evaluates
    /// to, which builds the binding.
    pub(super) fn load<'js>(&self, ctx: &Ctx<'js>) -> rquickjs::Result<Function<'js>> {
        let raw = ctx.as_raw().as_ptr();
        // SAFETY: the bytes are what `JS_WriteObject` wrote in `compile`, with the same QuickJS;
        // they are copied (no `JS_READ_OBJ_ROM_DATA`), so the object does not borrow them.
        let function = unsafe {
            qjs::JS_ReadObject(
                raw,
                self.bytecode.as_ptr(),
                self.bytecode.len() as _,
                qjs::JS_READ_OBJ_BYTECODE as i32,
            )
        };
        // SAFETY: a plain tag read.
        if unsafe { qjs::JS_IsException(function) } {
            return Err(Error::Exception);
        }
        // SAFETY: `JS_EvalFunction` takes `function` over (frees it) and answers an owned
        // value, which `Value::from_raw` takes over in turn.
        let evaluated = unsafe { qjs::JS_EvalFunction(raw, function) };
        if unsafe { qjs::JS_IsException(evaluated) } {
            return Err(Error::Exception);
        }
        let value = unsafe { Value::from_raw(ctx.clone(), evaluated) };
        value
            .into_function()
            .ok_or_else(|| Error::new_from_js("prelude result", "function"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rquickjs::Context;

    #[test]
    fn the_compiled_prelude_is_the_prelude_and_each_context_gets_its_own() {
        let runtime = Runtime::new().unwrap();
        let code = PreludeCode::compile(&runtime).unwrap();
        let from_source = Context::full(&runtime).unwrap().with(|ctx| {
            let function: Function = ctx.eval(PRELUDE).unwrap();
            function.get::<_, String>("name").unwrap()
        });
        for _ in 0..2 {
            Context::full(&runtime).unwrap().with(|ctx| {
                let function = code.load(&ctx).unwrap();
                assert_eq!(function.get::<_, String>("name").unwrap(), from_source);
                // What a context's prelude is given is its own: a mark left on one is not on
                // the next context's.
                let mark: Option<bool> = function.get("__mark").unwrap();
                assert_eq!(mark, None);
                function.set("__mark", true).unwrap();
            });
        }
    }

    #[test]
    fn stack_traces_still_name_the_prelude_file() {
        // Compiled in another runtime: read in this one.
        let runtime = Runtime::new().unwrap();
        let code = PreludeCode::shared().unwrap();
        Context::full(&runtime).unwrap().with(|ctx| {
            let function = code.load(&ctx).unwrap();
            // Called with nothing, the prelude throws somewhere inside itself.
            let _ = function.call::<_, Value>(());
            let thrown = ctx.catch();
            let stack: String = thrown
                .as_object()
                .and_then(|error| error.get("stack").ok())
                .unwrap_or_default();
            assert!(stack.contains("prelude.js"), "{stack}");
        });
    }
}
