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
use crate::script::failure::RefusedCall;
use crate::script::observe::ValueCheck;
use crate::script::prelude_code::{PRELUDE, PreludeCode};
use crate::script::{FailureKind, Host, StepFailure};

/// The property the prelude tags its errors with (see `prelude.js`).
const KIND_PROPERTY: &str = "__prettyplayKind";

/// The property that holds the call a proof run refused, on the error of that call.
const REFUSED_PROPERTY: &str = "__prettyplayRefused";

/// The property that holds what a failed value assertion compared (see `prelude.js`).
const VALUES_PROPERTY: &str = "__prettyplayValues";

/// The file name step code is compiled under; stack traces name it.
const STEP_FILE: &str = "step.js";

/// Resource limits of the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
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
    pub(crate) fn new(action_timeout: Duration) -> Self {
        Self {
            memory_bytes: 64 * 1024 * 1024,
            js_time: action_timeout.max(Duration::from_secs(10)),
            action_timeout,
            navigation_timeout: action_timeout.max(Duration::from_secs(30)),
        }
    }
}

/// A QuickJS runtime with limits, running step code against one test's page.
pub(crate) struct Sandbox {
    runtime: Runtime,
    /// Compiled once; each step's context runs it.
    prelude: &'static PreludeCode,
    limits: Limits,
    /// What step code reads as `vars` (frozen; a missing name is a script error).
    vars: BTreeMap<String, String>,
}

impl Sandbox {
    pub(crate) fn new(limits: Limits) -> Result<Self, StepFailure> {
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
    pub(crate) fn with_vars(mut self, vars: BTreeMap<String, String>) -> Self {
        self.vars = vars;
        self
    }

    /// Runs `code` (which must define `async function step(page)`) against the host's page.
    #[cfg(test)]
    pub(crate) fn run_step<H: Host + 'static>(
        &self,
        code: &str,
        host: &Rc<H>,
    ) -> Result<(), StepFailure> {
        self.run_step_with(code, host, None)
    }

    /// [`Sandbox::run_step`] for a step with a Gherkin doc string or data table, which its code
    /// reads as `vars.docString` or `vars.dataTable` (a frozen array of frozen rows).
    pub(crate) fn run_step_with<H: Host + 'static>(
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
        let outcome = match outcome {
            Ok(()) => {
                host.ended_with(None);
                Ok(())
            }
            Err((failure, check)) => {
                host.ended_with(check);
                Err(failure)
            }
        };
        let ended = host.end_step();
        self.runtime.run_gc();
        outcome.and(ended)
    }

    /// Compiles `code` and checks that it defines `step` as a function, without calling it.
    /// Top-level statements do run (with no browser behind `page`), under the same limits.
    pub(crate) fn check(&self, code: &str) -> Result<(), StepFailure> {
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
                Err(err) => Err(self.failure_of(&ctx, err, fired.get()).0),
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
        // The names whose values hold a secret of the run: the prelude tells the host when
        // step code reads one, because only then may what the page sends carry it.
        let mut secret_vars = Vec::new();
        for (name, value) in &self.vars {
            vars.set(name.as_str(), value.as_str())?;
            if host.holds_secret(value) {
                secret_vars.push(name.as_str());
            }
        }
        match argument {
            Some(StepArgument::DocString(text)) => {
                vars.set("docString", text.as_str())?;
                if host.holds_secret(text.as_str()) {
                    secret_vars.push("docString");
                }
            }
            Some(StepArgument::DataTable(rows)) => {
                if rows.iter().flatten().any(|cell| host.holds_secret(cell)) {
                    secret_vars.push("dataTable");
                }
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
        config.set("secretVars", secret_vars)?;
        let secret_read = {
            let host = Rc::clone(host);
            Function::new(ctx.clone(), move || host.secret_read())?
        };
        config.set("secretRead", secret_read)?;
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
    /// How a run failed, and what a failed value assertion that ended it compared.
    fn failure_of(
        &self,
        ctx: &Ctx<'_>,
        err: rquickjs::Error,
        interrupted: bool,
    ) -> (StepFailure, Option<ValueCheck>) {
        if let (false, rquickjs::Error::Exception) = (interrupted, &err) {
            let thrown = ctx.catch();
            let check = value_check(&thrown);
            return (thrown_failure(thrown, self.limits.memory_bytes), check);
        }
        (self.other_failure(err, interrupted), None)
    }

    /// How a run failed when step code threw nothing itself.
    fn other_failure(&self, err: rquickjs::Error, interrupted: bool) -> StepFailure {
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
pub(crate) fn api_listing() -> Result<String, StepFailure> {
    walk_binding("listing the API", LISTER)
}

/// Runs `walker`, a JavaScript function of the prelude's binding that returns a string, in a
/// fresh context where the prelude has defined the globals step code sees; `what` names the
/// walk in its failure.
pub(super) fn walk_binding(what: &str, walker: &str) -> Result<String, StepFailure> {
    let failed =
        |message: String| StepFailure::new(FailureKind::Script, format!("{what}: {message}"));
    let runtime = Runtime::new().map_err(|err| failed(err.to_string()))?;
    let context = Context::full(&runtime).map_err(|err| failed(err.to_string()))?;
    context.with(|ctx| {
        call_walker(&ctx, walker).map_err(|err| match err {
            rquickjs::Error::Exception => failed(thrown_failure(ctx.catch(), 0).message),
            other => failed(other.to_string()),
        })
    })
}

fn call_walker(ctx: &Ctx<'_>, walker: &str) -> rquickjs::Result<String> {
    let prelude: Function = ctx.eval_with_options(PRELUDE, eval_options("prelude.js"))?;
    let host = Function::new(ctx.clone(), |_: f64, _: String, _: String| -> String {
        r#"{"value":null}"#.to_owned()
    })?;
    let log = Function::new(ctx.clone(), |_: String, _: String| {})?;
    let config = Object::new(ctx.clone())?;
    let binding: Object = prelude.call((host, log, config))?;
    let walker: Function = ctx.eval(walker)?;
    walker.call((binding,))
}

/// docs/step-api.md's prose around the generated listing (`__LISTING__`) and the table of what
/// each method does (`__KINDS__`), kept as Markdown so that it reads as the document does.
#[cfg(test)]
const STEP_API: &str = include_str!("step_api.md");

/// The published document around the listing (docs/step-api.md).
#[cfg(test)]
pub(crate) fn api_document(listing: &str) -> String {
    STEP_API
        .replace("__LISTING__", listing)
        .replace("__KINDS__", &crate::script::api_methods::kinds_section())
}

/// Walks the prelude's classes: public methods (no leading `_`) with their parameter lists.
const LISTER: &str = r#"(function (binding) {
  const lines = [
    'expect(locator | page | value, message?)',
    'expect.poll(fn, options)  (then any value matcher: expect.poll(fn).toBe(expected))',
    'expect.any(constructor), expect.anything(), expect.arrayContaining(array), expect.objectContaining(object), expect.stringContaining(text), expect.stringMatching(textOrRegExp), expect.closeTo(number, precision)',
    'vars.NAME  (the value of the step\'s ${NAME} or <column> placeholder; frozen; write vars.NAME, never the value)',
    'request  (the same object as page.request, an apiRequestContext: HTTP requests with the pages\' cookies, to the origins the pages may reach; relative URLs resolve against the base URL)',
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

/// What a failed value assertion compared, when `value` is the error it threw.
fn value_check(value: &Value<'_>) -> Option<ValueCheck> {
    #[derive(serde::Deserialize)]
    struct Values {
        expected: String,
        received: String,
    }
    let wire = value
        .as_object()?
        .get::<_, Option<String>>(VALUES_PROPERTY)
        .ok()
        .flatten()?;
    let values: Values = serde_json::from_str(&wire).ok()?;
    Some(ValueCheck {
        expected: values.expected,
        received: values.received,
    })
}

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
    let refused = text(REFUSED_PROPERTY).and_then(|wire| RefusedCall::from_wire(&wire));
    let tagged = match refused {
        Some(call) => Some(FailureKind::Refused { call }),
        None => text(KIND_PROPERTY).and_then(|k| FailureKind::from_wire(&k)),
    };
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
mod tests {
    use std::cell::RefCell;

    use serde_json::{Value as Json, json};

    use super::*;

    /// How the recording host answers a call: `(method, params)` → the reply JSON.
    type Answer = Box<dyn Fn(&str, &Json) -> Json>;

    /// A host that records every call and answers from a closure, so the prelude and its
    /// argument handling are tested without a browser.
    struct RecordingHost {
        calls: RefCell<Vec<(u32, String, Json)>>,
        logs: RefCell<Vec<String>>,
        steps_ended: Cell<u32>,
        ended_with: RefCell<Vec<Option<ValueCheck>>>,
        /// How many times step code read a var whose value holds `s3cret`.
        secrets_read: Cell<u32>,
        answer: Answer,
    }

    impl RecordingHost {
        fn answering(answer: impl Fn(&str, &Json) -> Json + 'static) -> Rc<Self> {
            Rc::new(Self {
                calls: RefCell::new(Vec::new()),
                logs: RefCell::new(Vec::new()),
                steps_ended: Cell::new(0),
                ended_with: RefCell::new(Vec::new()),
                secrets_read: Cell::new(0),
                answer: Box::new(answer),
            })
        }

        fn calls(&self) -> Vec<(u32, String, Json)> {
            self.calls.borrow().clone()
        }
    }

    impl Host for RecordingHost {
        fn call(&self, page_id: u32, method: &str, params: &str) -> String {
            let params: Json = serde_json::from_str(params).expect("the prelude sends JSON");
            let reply = (self.answer)(method, &params);
            self.calls
                .borrow_mut()
                .push((page_id, method.to_owned(), params));
            reply.to_string()
        }

        fn push_log(&self, level: &str, message: &str) {
            self.logs.borrow_mut().push(format!("{level}: {message}"));
        }

        fn host_time(&self) -> Duration {
            Duration::ZERO
        }

        fn ended_with(&self, check: Option<ValueCheck>) {
            self.ended_with.borrow_mut().push(check);
        }

        fn end_step(&self) -> Result<(), StepFailure> {
            self.steps_ended.set(self.steps_ended.get() + 1);
            Ok(())
        }

        fn holds_secret(&self, text: &str) -> bool {
            text.contains("s3cret")
        }

        fn secret_read(&self) {
            self.secrets_read.set(self.secrets_read.get() + 1);
        }
    }

    fn sandbox() -> Sandbox {
        Sandbox::new(Limits::new(Duration::from_secs(5))).unwrap()
    }

    fn ok(_: &str, _: &Json) -> Json {
        json!({ "value": {} })
    }

    #[test]
    fn locator_actions_reach_the_host_as_playwright_protocol_calls() {
        let host = RecordingHost::answering(ok);
        sandbox()
            .run_step(
                "async function step(page) {\n\
               await page.getByRole('button', { name: 'Save' }).click();\n\
               await page.getByPlaceholder('What needs to be done?').fill('buy milk', { timeout: 1234 });\n\
             }",
                &host,
            )
            .unwrap();
        let calls = host.calls();
        assert_eq!(calls.len(), 2, "{calls:#?}");
        let (page, method, params) = &calls[0];
        assert_eq!((*page, method.as_str()), (0, "frame.click"));
        assert_eq!(params["selector"], "internal:role=button[name=\"Save\"i]");
        assert_eq!(params["strict"], true);
        assert_eq!(params["timeout"], 5000.0, "the action timeout by default");
        let (_, method, params) = &calls[1];
        assert_eq!(method, "frame.fill");
        assert_eq!(
            params["selector"],
            "internal:attr=[placeholder=\"What needs to be done?\"i]"
        );
        assert_eq!(params["value"], "buy milk");
        assert_eq!(params["timeout"], 1234.0, "an explicit timeout wins");
        assert_eq!(host.steps_ended.get(), 1);
    }

    #[test]
    fn web_first_assertions_are_one_server_side_expect() {
        let host = RecordingHost::answering(ok);
        sandbox()
            .run_step(
                "async function step(page) {\n\
               await expect(page.getByTestId('todo-count')).not.toHaveText('2 items left');\n\
             }",
                &host,
            )
            .unwrap();
        let calls = host.calls();
        let (_, method, params) = &calls[0];
        assert_eq!(method, "frame.expect");
        assert_eq!(params["expression"], "to.have.text");
        assert_eq!(params["isNot"], true);
        assert_eq!(
            params["selector"],
            "internal:testid=[data-testid=\"todo-count\"s]"
        );
        assert!(
            params.to_string().contains("2 items left"),
            "the expected text is sent: {params}"
        );
    }

    #[test]
    fn a_huge_thrown_message_is_cut_to_16_kib() {
        // 8 MB, not the 40 MB of the report: QuickJS's 64 MiB heap must hold the string and the
        // copies made while it is thrown and read.
        for (code, starts) in [
            (
                "async function step(page) { throw new Error('x'.repeat(8_000_000)); }",
                "Error: xxx",
            ),
            (
                "async function step(page) { throw 'y'.repeat(8_000_000); }",
                "step code threw yyy",
            ),
        ] {
            let host = RecordingHost::answering(ok);
            let failure = sandbox().run_step(code, &host).unwrap_err();
            assert_eq!(failure.kind, FailureKind::FailedCheck);
            assert!(
                failure.message.starts_with(starts),
                "{}",
                &failure.message[..40]
            );
            let marker = failure.message.rfind('…').expect("a cut marker");
            assert!(marker <= 16 * 1024, "{marker}");
            assert!(
                failure.message[marker..].ends_with(" bytes cut"),
                "{}",
                &failure.message[marker..]
            );
            assert!(failure.message.len() <= 16 * 1024 + 40);
        }
    }

    #[test]
    fn huge_console_lines_are_cut_before_the_host_keeps_them() {
        let host = RecordingHost::answering(ok);
        sandbox()
            .run_step(
                "async function step(page) { console.log('z'.repeat(1_000_000)); }",
                &host,
            )
            .unwrap();
        let logs = host.logs.borrow();
        assert_eq!(logs.len(), 1);
        assert_eq!(
            logs[0],
            format!("log: {}… 983616 bytes cut", "z".repeat(16 * 1024))
        );
    }

    #[test]
    fn a_check_the_host_refuses_is_a_failed_check_with_playwrights_message() {
        let host = RecordingHost::answering(|method, _| {
            assert_eq!(method, "frame.expect");
            json!({ "error": {
                "kind": "check",
                "message": "expect failed",
                "log": ["waiting for getByTestId('todo-count')"],
                // The host renders the received value as Playwright prints it.
                "received": "\"2 items left\"",
            }})
        });
        let failure = sandbox()
            .run_step(
                "async function step(page) {\n\
               await expect(page.getByTestId('todo-count')).toHaveText('1 item left');\n\
             }",
                &host,
            )
            .unwrap_err();
        assert_eq!(failure.kind, FailureKind::FailedCheck);
        for line in [
            "expect(locator).toHaveText(expected) failed",
            "Locator:  getByTestId('todo-count')",
            "Expected: \"1 item left\"",
            "Received: \"2 items left\"",
            "Timeout:  5000ms",
            "waiting for getByTestId('todo-count')",
        ] {
            assert!(
                failure.message.contains(line),
                "{line:?} missing in:\n{}",
                failure.message
            );
        }
        assert_eq!(failure.code_line, Some(2));
    }

    #[test]
    fn a_refusal_reaches_rust_as_its_kind_with_the_call() {
        for (refused, call) in [
            (json!({ "page": "click" }), RefusedCall::Page("click")),
            (
                json!({ "request": "POST" }),
                RefusedCall::Request(crate::script::HttpMethod::new("POST").unwrap()),
            ),
        ] {
            let host = RecordingHost::answering(
                move |_, _| json!({ "error": { "kind": "refused", "message": "acts on the page", "refused": refused } }),
            );
            let failure = sandbox()
                .run_step(
                    "async function step(page) { await page.getByText('Add').click(); }",
                    &host,
                )
                .unwrap_err();
            assert_eq!(failure.kind, FailureKind::Refused { call });
        }
        // Step code that catches a refusal and throws its own error is not refused.
        let host = RecordingHost::answering(
            |_, _| json!({ "error": { "kind": "refused", "message": "acts", "refused": { "page": "click" } } }),
        );
        let failure = sandbox()
            .run_step(
                "async function step(page) {\n\
                   try { await page.getByText('Add').click(); } catch (e) { throw new Error(e.message); }\n\
                 }",
                &host,
            )
            .unwrap_err();
        assert_eq!(failure.kind, FailureKind::FailedCheck);
    }

    #[test]
    fn a_failed_value_assertion_hands_the_host_what_it_compared() {
        let host = RecordingHost::answering(ok);
        let code = |body: &str| format!("async function step(page) {{ {body} }}");
        for (body, expected) in [
            (
                "expect('2 items left').toBe('1 item left');",
                Some(("1 item left", "2 items left")),
            ),
            ("expect(2).toEqual(3);", Some(("3", "2"))),
            ("expect(2).toBeGreaterThan(3);", Some(("> 3", "2"))),
            ("expect(2, 'the counter').toBe(3);", Some(("3", "2"))),
            // Negated and other assertions compare no expected value with a received one.
            ("expect(3).not.toBe(3);", None),
            ("expect('abc').toContain('x');", None),
            ("throw new Error('Expected: 1');", None),
            ("expect(1).toBe(1);", None),
        ] {
            let _ = sandbox().run_step(&code(body), &host);
            let last = host.ended_with.borrow().last().cloned().flatten();
            let expected = expected.map(|(expected, received)| ValueCheck {
                expected: expected.to_owned(),
                received: received.to_owned(),
            });
            assert_eq!(last, expected, "{body}");
        }
    }

    #[test]
    fn a_state_matcher_s_call_says_which_state_it_expects() {
        use crate::script::observe::{Call, ObservedCall};
        for (assertion, expected) in [
            ("toBeChecked()", Some("checked")),
            ("toBeChecked({ checked: false })", Some("unchecked")),
            (
                "toBeChecked({ indeterminate: true })",
                Some("indeterminate"),
            ),
            ("not.toBeChecked()", Some("checked")),
            ("toBeVisible()", Some("visible")),
            ("toBeVisible({ visible: false })", Some("hidden")),
            ("toBeHidden()", Some("hidden")),
            ("toBeEnabled()", Some("enabled")),
            ("toBeEnabled({ enabled: false })", Some("disabled")),
            ("toBeDisabled()", Some("disabled")),
            ("toHaveText('x')", None),
        ] {
            let host = RecordingHost::answering(ok);
            sandbox()
                .run_step(
                    &format!("async function step(page) {{ await expect(page.getByText('a')).{assertion}; }}"),
                    &host,
                )
                .unwrap();
            let (page, method, params) = host.calls().remove(0);
            let call = Call {
                page,
                method,
                params,
                received: None,
            };
            assert_eq!(
                ObservedCall::of(&call).expected_state,
                expected,
                "{assertion}"
            );
        }
    }

    #[test]
    fn host_error_kinds_become_failure_kinds() {
        for (kind, expected) in [
            ("timeout", FailureKind::Timeout),
            ("strict", FailureKind::StrictMode),
            ("crash", FailureKind::Crash),
            ("script", FailureKind::Script),
        ] {
            let host = RecordingHost::answering(
                move |_, _| json!({ "error": { "kind": kind, "message": "Timeout 5000ms exceeded." } }),
            );
            let failure = sandbox()
                .run_step(
                    "async function step(page) { await page.getByText('Add').click(); }",
                    &host,
                )
                .unwrap_err();
            assert_eq!(failure.kind, expected, "{kind}");
            assert!(
                failure
                    .message
                    .starts_with("locator.click: Timeout 5000ms exceeded."),
                "{}",
                failure.message
            );
        }
    }

    #[test]
    fn what_step_code_throws_itself_is_a_failed_check_and_its_own_bugs_are_script_errors() {
        let host = RecordingHost::answering(ok);
        let thrown = sandbox()
            .run_step(
                "async function step(page) { throw new Error('nope'); }",
                &host,
            )
            .unwrap_err();
        assert_eq!(thrown.kind, FailureKind::FailedCheck);
        assert_eq!(thrown.message, "Error: nope");
        let bug = sandbox()
            .run_step("async function step(page) { await pgae.goto('/'); }", &host)
            .unwrap_err();
        assert_eq!(bug.kind, FailureKind::Script);
        assert!(bug.message.starts_with("ReferenceError"), "{}", bug.message);
    }

    #[test]
    fn the_sandbox_offers_no_way_out() {
        for code in [
            "async function step(page) { require('fs'); }",
            "async function step(page) { await fetch('http://127.0.0.1/'); }",
            "async function step(page) { process.exit(1); }",
            "async function step(page) { setTimeout(() => {}, 10); }",
        ] {
            let host = RecordingHost::answering(ok);
            let failure = sandbox().run_step(code, &host).unwrap_err();
            assert_eq!(
                failure.kind,
                FailureKind::Script,
                "{code}: {}",
                failure.message
            );
            assert!(host.calls().is_empty(), "{code}");
        }
    }

    #[test]
    fn aria_ref_selectors_and_fixed_waits_are_refused_before_reaching_the_page() {
        for (code, message) in [
            (
                "await page.locator('aria-ref=e12').click();",
                "page.locator: aria-ref= selectors are not available in step code",
            ),
            (
                "await page.getByRole('list').locator('li >> aria-ref=e3').click();",
                "locator.locator: aria-ref= selectors are not available in step code",
            ),
            (
                "await page.frameLocator('aria-ref=e7').getByText('Pay').click();",
                "page.frameLocator: aria-ref= selectors are not available in step code",
            ),
            (
                "await page.waitForTimeout(500);",
                "page.waitForTimeout() is not available in step code: fixed waits",
            ),
        ] {
            let host = RecordingHost::answering(ok);
            let failure = sandbox()
                .run_step(&format!("async function step(page) {{ {code} }}"), &host)
                .unwrap_err();
            assert_eq!(failure.kind, FailureKind::Script, "{code}");
            assert!(
                failure.message.contains(message),
                "{code}: {}",
                failure.message
            );
            assert!(host.calls().is_empty(), "{code} reached the host");
        }
        // A selector that merely mentions the word is a selector like any other.
        let host = RecordingHost::answering(ok);
        sandbox()
            .run_step(
                "async function step(page) { await page.locator('[data-x=\"aria-ref=e1\"]').click(); }",
                &host,
            )
            .unwrap();
        assert_eq!(host.calls()[0].2["selector"], "[data-x=\"aria-ref=e1\"]");
    }

    #[test]
    fn vars_are_frozen_and_a_missing_one_is_a_script_error() {
        let host = RecordingHost::answering(ok);
        let sandbox = sandbox().with_vars(BTreeMap::from([("user".into(), "alice".into())]));
        let run = |code: &str| sandbox.run_step(code, &host);
        run("async function step(page) { if (vars.user !== 'alice' || !Object.isFrozen(vars)) throw new Error('bad'); }")
            .unwrap();
        let missing = run("async function step(page) { return vars.PASSWORD; }").unwrap_err();
        let expected = "TypeError: vars.PASSWORD has no value: the step names no ${PASSWORD}";
        assert!(missing.message.starts_with(expected), "{missing:?}");
        assert_eq!(missing.kind, FailureKind::Script, "{missing:?}");
        let set = run("async function step(page) { vars.user = 'bob'; }").unwrap_err();
        assert!(set.message.contains("vars is frozen"), "{set:?}");
    }

    #[test]
    fn every_way_to_a_secret_vars_value_tells_the_host_and_other_vars_do_not() {
        let sandbox = sandbox().with_vars(BTreeMap::from([
            ("user".into(), "alice".into()),
            ("PW".into(), "my-s3cret-pw".into()),
        ]));
        let reads = |code: &str| {
            let host = RecordingHost::answering(ok);
            sandbox.run_step(code, &host).unwrap();
            host.secrets_read.get()
        };
        let step = |body: &str| format!("async function step(page) {{ {body} }}");
        assert_eq!(reads(&step("return vars.user + vars.toString;")), 0);
        assert_eq!(reads(&step("return 'PW' in vars;")), 0);
        // Listing the names asks for each one's descriptor, value included, so it counts.
        for read in [
            "return Object.keys(vars);",
            "return vars.PW;",
            "return vars['P' + 'W'];",
            "return Object.values(vars).join();",
            "return JSON.stringify(vars);",
            "return Object.getOwnPropertyDescriptor(vars, 'PW').value;",
            "return Object.getOwnPropertyDescriptors(vars);",
            "return { ...vars };",
            "return Object.assign({}, vars);",
            "for (const k in vars) { vars[k]; }",
        ] {
            assert!(reads(&step(read)) > 0, "{read}");
        }
        // A doc string that holds a secret is a var like the others.
        let host = RecordingHost::answering(ok);
        sandbox
            .run_step_with(
                &step("return vars.docString;"),
                &host,
                Some(&StepArgument::DocString("with my-s3cret-pw".into())),
            )
            .unwrap();
        assert_eq!(host.secrets_read.get(), 1);
    }

    #[test]
    fn a_gherkin_doc_string_and_data_table_are_frozen_vars_of_their_step_only() {
        let host = RecordingHost::answering(ok);
        let sandbox = sandbox().with_vars(BTreeMap::from([("user".into(), "alice".into())]));
        let doc = StepArgument::DocString("line 1\nline 2".into());
        sandbox
            .run_step_with(
                "async function step(page) { if (vars.docString !== 'line 1\\nline 2' || vars.user !== 'alice') throw new Error('bad'); }",
                &host,
                Some(&doc),
            )
            .unwrap();
        let table = StepArgument::DataTable(vec![
            vec!["title".into(), "done".into()],
            vec!["milk".into(), "no".into()],
        ]);
        let code = "async function step(page) {
        if (vars.dataTable.length !== 2 || vars.dataTable[1][0] !== 'milk') throw new Error('bad');
        if (!Object.isFrozen(vars.dataTable) || !Object.isFrozen(vars.dataTable[1])) throw new Error('not frozen');
        vars.dataTable[1][0] = 'eggs';
        if (vars.dataTable[1][0] !== 'milk') throw new Error('changed');
    }";
        sandbox.run_step_with(code, &host, Some(&table)).unwrap();
        // Another step does not see it.
        let gone = sandbox
            .run_step(
                "async function step(page) { return vars.dataTable; }",
                &host,
            )
            .unwrap_err();
        assert!(
            gone.message.contains("vars.dataTable has no value"),
            "{gone:?}"
        );
    }

    #[test]
    fn console_output_goes_to_the_host_log() {
        let host = RecordingHost::answering(ok);
        sandbox()
            .run_step(
                "async function step(page) { console.log('hello', 42); console.error('bad'); }",
                &host,
            )
            .unwrap();
        assert_eq!(*host.logs.borrow(), ["log: hello 42", "error: bad"]);
    }

    #[test]
    fn step_line_reads_quickjs_positions() {
        assert_eq!(step_line("    at step (step.js:3:5)\n"), Some(3));
        assert_eq!(step_line("at <eval> (prelude.js:9)"), None);
    }

    #[test]
    fn api_listing_names_the_binding_methods() {
        let listing = api_listing().unwrap();
        for expected in [
            "page.goto(url, options)",
            "page.getByRole(role, options)",
            "page.close()  (refused: not available in step code)",
            "locator.click(options)",
            "expect.toHaveText(expected, options)",
            "expect.not",
            "dialog.accept(promptText)",
            "page.waitForTimeout(timeout)  (refused: not available in step code)",
        ] {
            assert!(
                listing.lines().any(|l| l == expected),
                "{expected} missing in:\n{listing}"
            );
        }
        assert!(!listing.contains("._"), "private members leak:\n{listing}");
    }

    /// docs/step-api.md publishes the listing; regenerate with `UPDATE_API_DOC=1 cargo test`.
    #[test]
    fn published_api_listing_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/step-api.md");
        let expected = api_document(&api_listing().unwrap());
        if std::env::var_os("UPDATE_API_DOC").is_some() {
            std::fs::write(&path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            actual == expected,
            "docs/step-api.md is out of date: run `UPDATE_API_DOC=1 cargo test --lib published_api`"
        );
    }

    #[test]
    fn check_accepts_a_step_function_and_rejects_the_rest() {
        let limits = Limits {
            js_time: Duration::from_millis(300),
            ..Limits::new(Duration::from_secs(1))
        };
        let sandbox = Sandbox::new(limits).unwrap();
        sandbox
            .check("async function step(page) { await page.goto('/'); }")
            .unwrap();
        let missing = sandbox.check("async function stp(page) {}").unwrap_err();
        assert_eq!(missing.kind, FailureKind::Script);
        assert!(
            missing.message.contains("must define"),
            "{}",
            missing.message
        );
        let syntax = sandbox.check("async function step(page) {").unwrap_err();
        assert_eq!(syntax.kind, FailureKind::Script);
        assert!(
            syntax.message.starts_with("SyntaxError"),
            "{}",
            syntax.message
        );
        let runaway = sandbox.check("while (true) {}").unwrap_err();
        assert!(runaway.message.contains("stopped"), "{}", runaway.message);
    }

    #[test]
    fn limits_scale_with_action_timeout() {
        let limits = Limits::new(Duration::from_secs(5));
        assert_eq!(limits.js_time, Duration::from_secs(10));
        assert_eq!(limits.navigation_timeout, Duration::from_secs(30));
        let long = Limits::new(Duration::from_secs(40));
        assert_eq!(long.js_time, Duration::from_secs(40));
        assert_eq!(long.navigation_timeout, Duration::from_secs(40));
    }
}
