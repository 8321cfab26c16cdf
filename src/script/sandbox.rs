//! The QuickJS sandbox step code runs in: no filesystem, network, processes, modules or timers;
//! a memory limit; runaway JavaScript stopped by an interrupt handler.
//!
//! Main type: [`Sandbox`], one per test thread (QuickJS runtimes are not shared across threads).
//! Each step runs in a fresh context, so nothing one step defines leaks into the next.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use rquickjs::context::EvalOptions;
use rquickjs::{Context, Ctx, Function, Object, Runtime, Value};

use crate::scenario::StepArgument;
use crate::script::cut_text::{MAX_MESSAGE_BYTES, cut_text};
use crate::script::prelude_code::{PRELUDE, PreludeCode};
use crate::script::{FailureKind, Host, StepFailure};

/// The property the prelude tags its errors with (see `prelude.js`).
const KIND_PROPERTY: &str = "__prettyplayKind";

/// The file name step code is compiled under; stack traces name it.
const STEP_FILE: &str = "step.js";

/// Resource limits of the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Heap limit of the QuickJS runtime.
    pub memory_bytes: usize,
    /// How long step code may run JavaScript, not counting time spent in browser calls,
    /// before it is stopped as runaway.
    pub js_time: Duration,
    /// Default timeout of actions and expectations.
    pub action_timeout: Duration,
    /// Default timeout of navigations.
    pub navigation_timeout: Duration,
}

impl Limits {
    /// 64 MiB of heap; JavaScript time bounded by the action timeout, and at least 10 s: no
    /// legitimate step computes that long between browser calls, and the clock is wall time
    /// minus browser calls, which a busy machine stretches (a 1 s floor stopped ordinary step
    /// code as "runaway" on a loaded 2-core machine).
    pub fn new(action_timeout: Duration) -> Self {
        Self {
            memory_bytes: 64 * 1024 * 1024,
            js_time: action_timeout.max(Duration::from_secs(10)),
            action_timeout,
            navigation_timeout: action_timeout.max(Duration::from_secs(30)),
        }
    }
}

/// A QuickJS runtime with limits, running step code against one test's page.
pub struct Sandbox {
    runtime: Runtime,
    /// Compiled once; each step's context runs it.
    prelude: &'static PreludeCode,
    limits: Limits,
    /// What step code reads as `vars` (frozen; a missing name is a script error).
    vars: BTreeMap<String, String>,
}

impl Sandbox {
    pub fn new(limits: Limits) -> Result<Self, StepFailure> {
        let runtime = Runtime::new().map_err(setup_failed("start the JavaScript sandbox"))?;
        runtime.set_memory_limit(limits.memory_bytes);
        runtime.set_max_stack_size(1024 * 1024);
        let prelude = PreludeCode::shared().map_err(|err| {
            StepFailure::new(
                FailureKind::Crash,
                format!("could not compile the binding: {err}"),
            )
        })?;
        Ok(Self {
            runtime,
            prelude,
            limits,
            vars: BTreeMap::new(),
        })
    }

    /// The values step code reads as `vars.NAME`.
    pub fn with_vars(mut self, vars: BTreeMap<String, String>) -> Self {
        self.vars = vars;
        self
    }

    /// Runs `code` (which must define `async function step(page)`) against the host's page.
    pub fn run_step<H: Host + 'static>(&self, code: &str, host: &Rc<H>) -> Result<(), StepFailure> {
        self.run_step_with(code, host, None)
    }

    /// [`Sandbox::run_step`] for a step with a Gherkin doc string or data table, which its code
    /// reads as `vars.docString` or `vars.dataTable` (a frozen array of frozen rows).
    pub fn run_step_with<H: Host + 'static>(
        &self,
        code: &str,
        host: &Rc<H>,
        argument: Option<&StepArgument>,
    ) -> Result<(), StepFailure> {
        let context =
            Context::full(&self.runtime).map_err(setup_failed("create a JavaScript context"))?;
        let fired = Rc::new(Cell::new(false));
        let started = Instant::now();
        let host_time_at_start = host.host_time();
        {
            let fired = Rc::clone(&fired);
            let host = Rc::clone(host);
            let limit = self.limits.js_time;
            self.runtime.set_interrupt_handler(Some(Box::new(move || {
                let in_host = host.host_time().saturating_sub(host_time_at_start);
                let in_js = started.elapsed().saturating_sub(in_host);
                if in_js > limit {
                    fired.set(true);
                }
                fired.get()
            })));
        }
        let outcome = context.with(|ctx| {
            self.execute(&ctx, code, host, argument)
                .map_err(|err| self.failure_of(&ctx, err, fired.get()))
        });
        self.runtime.set_interrupt_handler(None);
        drop(context);
        let ended = host.end_step();
        self.runtime.run_gc();
        outcome.and(ended)
    }

    /// Compiles `code` and checks that it defines `step` as a function, without calling it.
    /// Top-level statements do run (with no browser behind `page`), under the same limits.
    pub fn check(&self, code: &str) -> Result<(), StepFailure> {
        let context =
            Context::full(&self.runtime).map_err(setup_failed("create a JavaScript context"))?;
        let fired = Rc::new(Cell::new(false));
        {
            let fired = Rc::clone(&fired);
            let started = Instant::now();
            let limit = self.limits.js_time;
            self.runtime.set_interrupt_handler(Some(Box::new(move || {
                if started.elapsed() > limit {
                    fired.set(true);
                }
                fired.get()
            })));
        }
        let outcome = context.with(|ctx| {
            let defined = (|| -> rquickjs::Result<bool> {
                ctx.eval_with_options::<(), _>(code, eval_options(STEP_FILE))?;
                let step: Value = ctx.globals().get("step")?;
                Ok(step.is_function())
            })();
            match defined {
                Ok(true) => Ok(()),
                Ok(false) => Err(StepFailure::new(FailureKind::Script, MISSING_STEP)),
                Err(err) => Err(self.failure_of(&ctx, err, fired.get())),
            }
        });
        self.runtime.set_interrupt_handler(None);
        drop(context);
        self.runtime.run_gc();
        outcome
    }

    fn execute<'js, H: Host + 'static>(
        &self,
        ctx: &Ctx<'js>,
        code: &str,
        host: &Rc<H>,
        argument: Option<&StepArgument>,
    ) -> rquickjs::Result<()> {
        let prelude = self.prelude.load(ctx)?;
        let call_host = {
            let host = Rc::clone(host);
            Function::new(
                ctx.clone(),
                move |page_id: f64, method: String, params: String| -> String {
                    // Page ids are small non-negative integers minted by the prelude.
                    host.call(page_id as u32, &method, &params)
                },
            )?
        };
        let log = {
            let host = Rc::clone(host);
            Function::new(ctx.clone(), move |level: String, message: String| {
                // Cut at the source: a runaway line never reaches the host whole.
                host.push_log(&level, &cut_text(message, MAX_MESSAGE_BYTES));
            })?
        };
        let config = Object::new(ctx.clone())?;
        config.set("timeout", self.limits.action_timeout.as_millis() as f64)?;
        config.set(
            "navigationTimeout",
            self.limits.navigation_timeout.as_millis() as f64,
        )?;
        let vars = Object::new(ctx.clone())?;
        for (name, value) in &self.vars {
            vars.set(name.as_str(), value.as_str())?;
        }
        match argument {
            Some(StepArgument::DocString(text)) => vars.set("docString", text.as_str())?,
            Some(StepArgument::DataTable(rows)) => {
                let table = rquickjs::Array::new(ctx.clone())?;
                for (i, row) in rows.iter().enumerate() {
                    let cells = rquickjs::Array::new(ctx.clone())?;
                    for (j, cell) in row.iter().enumerate() {
                        cells.set(j, cell.as_str())?;
                    }
                    table.set(i, cells)?;
                }
                vars.set("dataTable", table)?;
            }
            None => {}
        }
        config.set("vars", vars)?;
        let binding: Object = prelude.call((call_host, log, config))?;
        let page: Value = binding.get("page")?;

        ctx.eval_with_options::<(), _>(code, eval_options(STEP_FILE))?;
        let step: Value = ctx.globals().get("step")?;
        let Some(step) = step.as_function() else {
            return Err(rquickjs::Error::new_from_js_message(
                "step",
                "function",
                MISSING_STEP,
            ));
        };
        let returned: Value = step.call((page,))?;
        if let Some(promise) = returned.as_promise() {
            promise.finish::<Value>()?;
        }
        Ok(())
    }

    /// Turns an rquickjs error (usually a thrown JS value) into a classified step failure.
    fn failure_of(&self, ctx: &Ctx<'_>, err: rquickjs::Error, interrupted: bool) -> StepFailure {
        if interrupted {
            return StepFailure::new(
                FailureKind::Script,
                format!(
                    "step code was stopped: it ran JavaScript for more than {:.1}s outside \
                     browser calls (an endless loop?)",
                    self.limits.js_time.as_secs_f64()
                ),
            );
        }
        match err {
            rquickjs::Error::Exception => thrown_failure(ctx.catch(), self.limits.memory_bytes),
            rquickjs::Error::WouldBlock => StepFailure::new(
                FailureKind::Script,
                "step code awaited a promise that can never settle (no timers or events run \
                 in the sandbox)",
            ),
            rquickjs::Error::FromJs { message, .. } if message.as_deref() == Some(MISSING_STEP) => {
                StepFailure::new(FailureKind::Script, MISSING_STEP)
            }
            other => StepFailure::new(FailureKind::Script, format!("JavaScript error: {other}")),
        }
    }
}

/// A sandbox that could not be set up: `what` could not be done.
fn setup_failed(what: &'static str) -> impl Fn(rquickjs::Error) -> StepFailure {
    move |err| StepFailure::new(FailureKind::Crash, format!("could not {what}: {err}"))
}

const MISSING_STEP: &str = "step code must define `async function step(page) { ... }`; this code defines no `step` function";

fn eval_options(file: &str) -> EvalOptions {
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = false;
    options.filename = Some(file.to_owned());
    options
}

/// Lists what step code can call, generated from the binding itself (the prelude's classes),
/// so it cannot drift from what runs: one `object.method(parameters)` per line.
pub fn api_listing() -> Result<String, StepFailure> {
    let failed = |message: String| {
        StepFailure::new(FailureKind::Script, format!("listing the API: {message}"))
    };
    let runtime = Runtime::new().map_err(|err| failed(err.to_string()))?;
    let context = Context::full(&runtime).map_err(|err| failed(err.to_string()))?;
    context.with(|ctx| {
        list_api(&ctx).map_err(|err| match err {
            rquickjs::Error::Exception => failed(thrown_failure(ctx.catch(), 0).message),
            other => failed(other.to_string()),
        })
    })
}

fn list_api(ctx: &Ctx<'_>) -> rquickjs::Result<String> {
    let prelude: Function = ctx.eval_with_options(PRELUDE, eval_options("prelude.js"))?;
    let host = Function::new(ctx.clone(), |_: f64, _: String, _: String| -> String {
        r#"{"value":null}"#.to_owned()
    })?;
    let log = Function::new(ctx.clone(), |_: String, _: String| {})?;
    let config = Object::new(ctx.clone())?;
    let binding: Object = prelude.call((host, log, config))?;
    let lister: Function = ctx.eval(LISTER)?;
    lister.call((binding,))
}

/// The published document around the listing (docs/step-api.md).
pub fn api_document(listing: &str) -> String {
    format!(
        "# The step-code API\n\n\
         Step code is JavaScript in Playwright Test syntax: `async function step(page) {{ ... }}` with\n\
         `page`, locators and `expect` shaped exactly like Playwright's JavaScript API. This listing is\n\
         generated from prettyplay's binding (`prettyplay api` prints it), so it is exactly what runs.\n\
         Options objects take Playwright's option names.\n\n\
         ```text\n{listing}\n```\n"
    )
}

/// Walks the prelude's classes: public methods (no leading `_`) with their parameter lists.
const LISTER: &str = r#"(function (binding) {
  const lines = [
    'expect(locator | page | value, message?)',
    'expect.poll(fn, options)  (then any value matcher: expect.poll(fn).toBe(expected))',
    'expect.any(constructor), expect.anything(), expect.arrayContaining(array), expect.objectContaining(object), expect.stringContaining(text), expect.stringMatching(textOrRegExp), expect.closeTo(number, precision)',
    'vars.NAME  (the value of the step\'s ${NAME} or <column> placeholder; frozen; write vars.NAME, never the value)',
  ];
  for (const [object, cls] of Object.entries(binding.api)) {
    const names = Object.getOwnPropertyNames(cls.prototype)
      .filter((n) => n !== 'constructor' && n !== 'toString' && !n.startsWith('_'))
      .sort();
    for (const name of names) {
      const d = Object.getOwnPropertyDescriptor(cls.prototype, name);
      if (d.get) {
        const refusedGetter = /\brefuse\(/.test(String(d.get)) ? '  (refused: not available in step code)' : '';
        lines.push(`${object}.${name}${refusedGetter}`);
        continue;
      }
      const source = String(d.value);
      const match = source.match(/^[^(]*\(([^)]*)\)/);
      const parameters = d.value.parameters || (match ? match[1].replace(/\s+/g, ' ').trim() : '');
      const refused = /\brefuse\(/.test(source) ? '  (refused: not available in step code)' : '';
      lines.push(`${object}.${name}(${parameters})${refused}`);
    }
  }
  return lines.join('\n');
})"#;

/// Classifies a thrown value: errors tagged by the binding keep their kind; JavaScript's own
/// error types are script errors; anything else the step threw is a failed check.
fn thrown_failure(value: Value<'_>, memory_bytes: usize) -> StepFailure {
    let Some(object) = value.as_object() else {
        let shown = value
            .as_string()
            .and_then(|s| s.to_string().ok())
            .unwrap_or_else(|| format!("{value:?}"));
        return StepFailure::new(FailureKind::FailedCheck, format!("step code threw {shown}"));
    };
    let text = |key: &str| -> Option<String> {
        object
            .get::<_, Option<rquickjs::Coerced<String>>>(key)
            .ok()
            .flatten()
            .map(|c| c.0)
    };
    let tagged = text(KIND_PROPERTY).and_then(|k| FailureKind::from_wire(&k));
    let name = text("name").unwrap_or_else(|| "Error".to_owned());
    let message = text("message").unwrap_or_default();
    let stack = text("stack").unwrap_or_default();
    let code_line = step_line(&stack).or_else(|| step_line(&message));
    let (kind, message) = match tagged {
        Some(kind) => (kind, message),
        None => match name.as_str() {
            "InternalError" if message.contains("out of memory") => (
                FailureKind::Script,
                format!(
                    "step code ran out of memory: the sandbox allows {} MiB",
                    memory_bytes / (1024 * 1024)
                ),
            ),
            "SyntaxError" | "ReferenceError" | "TypeError" | "RangeError" | "InternalError"
            | "URIError" | "EvalError" => (FailureKind::Script, format!("{name}: {message}")),
            _ => (FailureKind::FailedCheck, format!("{name}: {message}")),
        },
    };
    StepFailure {
        code_line,
        ..StepFailure::new(kind, message)
    }
}

/// The first `step.js:LINE` position in a QuickJS stack trace.
fn step_line(stack: &str) -> Option<u32> {
    static POSITION: LazyLock<Option<regex::Regex>> =
        LazyLock::new(|| regex::Regex::new(r"step\.js:(\d+)").ok());
    let re = POSITION.as_ref()?;
    re.captures(stack)?.get(1)?.as_str().parse().ok()
}

#[cfg(test)]
#[path = "sandbox_tests.rs"]
mod tests;
