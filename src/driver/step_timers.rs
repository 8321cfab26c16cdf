//! The timers step code leaves in the test's pages, so that the origin guard waits for them to
//! fire instead of waiting a fixed time: a request a timer sends fails the step only if the
//! guard sees it before the step is judged.
//!
//! Main type: [`StepTimers`]. Its init script (`step_timers.js`) wraps the page's timer
//! functions in every frame and counts the *tracked* timers still pending: those set while a
//! script of step code runs, or by a tracked timer's callback. The binding runs every script of
//! step code that may do more than read (`Reach::RunCode`) through [`StepTimers::track`], and a
//! settle asks each frame for its count ([`StepTimers::wait`]). The app's own timers are never
//! tracked, so an app's animation loop or polling costs a settle nothing.
//!
//! What is not tracked: what a script of step code does after its first `await` (a promise's
//! continuation runs outside the script's synchronous part), listeners and other callbacks it
//! leaves (events, `fetch` answers, `MessageChannel`), timers set through another window's
//! functions (a frame's or a popup's), workers, and a frame the init script did not run in.
//! For those the guard keeps its floor after step code's calls and its last read after the
//! context closed.

use std::hash::BuildHasher;
use std::time::Duration;

use playwright_rs::protocol::Frame;
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

/// The init script: a function of the control's property name.
const SCRIPT: &str = include_str!("step_timers.js");

/// The longest one question to a frame waits in the page for its tracked timers to fire: the
/// settle asks again after it, so that a page that closed or navigated meanwhile is noticed.
const ASK_AT_MOST: Duration = Duration::from_millis(500);

/// How much longer than the wait in the page an answer may take before the frame counts as not
/// answering.
const ANSWER_GRACE: Duration = Duration::from_secs(2);

/// See the module documentation.
pub(crate) struct StepTimers {
    /// The name of the window's property through which scripts are run and counts are read:
    /// random per guard, so that no page can know it in advance.
    key: String,
}

/// How a wait for the tracked timers ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimersLeft {
    /// None was pending when asked: nothing fired during the wait.
    None,
    /// Some were pending and all have fired or been cleared since.
    Fired,
    /// This many were still pending when the bound passed (a frame that did not answer counts
    /// as one).
    Pending(u64),
}

impl StepTimers {
    pub(crate) fn new() -> StepTimers {
        // Each RandomState is seeded from the system's randomness.
        let key = format!(
            "__pp{:016x}",
            std::collections::hash_map::RandomState::new().hash_one(3u8)
        );
        StepTimers { key }
    }

    /// The init script to install in every frame of the guard's context.
    pub(crate) fn init_script(&self) -> String {
        format!("({})({});", SCRIPT.trim_end(), json!(self.key))
    }

    /// Rewrites the `expression` of a call that runs step code's script in a page so that it
    /// runs inside the tracking scope: the script's source crosses as a string and the page's
    /// control compiles and runs it, as Playwright's driver would have. Returns whether the call
    /// had an expression to rewrite. In a frame without the control (the init script did not
    /// run there) the script runs as it is, untracked.
    pub(crate) fn track(&self, params: &mut Value) -> bool {
        let Some(source) = params.get("expression").and_then(Value::as_str) else {
            return false;
        };
        let is_function = params.get("isFunction").and_then(Value::as_bool) == Some(true);
        let expression = tracked_expression(&self.key, source, is_function);
        params["expression"] = Value::String(expression);
        true
    }

    /// Waits, for at most `bound`, until no frame of the pages of `main_frames` (their child
    /// frames included) has a tracked timer pending.
    pub(crate) async fn wait(&self, main_frames: &[Frame], bound: Duration) -> TimersLeft {
        let deadline = tokio::time::Instant::now() + bound;
        let mut fired = false;
        loop {
            let mut left = 0;
            for frame in with_children(main_frames) {
                let now = tokio::time::Instant::now();
                let ask = deadline.saturating_duration_since(now).min(ASK_AT_MOST);
                let count = self.ask(&frame, ask).await;
                if count > 0 {
                    fired = true;
                    left += count;
                }
            }
            if left == 0 {
                return if fired {
                    TimersLeft::Fired
                } else {
                    TimersLeft::None
                };
            }
            if tokio::time::Instant::now() >= deadline {
                return TimersLeft::Pending(left);
            }
        }
    }

    /// How many tracked timers `frame` has pending, once they reach zero or `wait` passed.
    /// A frame that is gone has none; one that does not answer counts as one.
    async fn ask(&self, frame: &Frame, wait: Duration) -> u64 {
        if frame.is_detached() {
            return 0;
        }
        let expression = format!(
            "(() => {{ const c = window[{key}]; return c ? c.settled({ms}) : 0; }})()",
            key = json!(self.key),
            ms = wait.as_millis()
        );
        let call = frame.channel().send::<Value, Value>(
            "evaluateExpression",
            json!({ "expression": expression, "isFunction": false,
                    "arg": { "value": { "v": "undefined" }, "handles": [] } }),
        );
        match tokio::time::timeout(wait + ANSWER_GRACE, call).await {
            Ok(Ok(answer)) => answer
                .pointer("/value/n")
                .and_then(Value::as_f64)
                .map_or(0, |n| n.max(0.0) as u64),
            // A page that closed or navigated answers with an error: its timers went with it.
            Ok(Err(_)) => 0,
            Err(_) => 1,
        }
    }
}

/// `main_frames` and every frame inside them that is still attached.
fn with_children(main_frames: &[Frame]) -> Vec<Frame> {
    let mut frames: Vec<Frame> = main_frames.to_vec();
    let mut next = 0;
    while next < frames.len() {
        let children = frames[next].child_frames();
        frames.extend(children.into_iter().filter(|f| !f.is_detached()));
        next += 1;
    }
    frames
}

/// The expression that runs `source` (a function's source when `is_function`, else an
/// expression) through the page's control named `key`, or as it is where there is none.
fn tracked_expression(key: &str, source: &str, is_function: bool) -> String {
    let key = json!(key);
    let source = json!(source);
    if is_function {
        // Called by the driver with the call's arguments, as the script itself would be.
        format!(
            "(function () {{ 'use strict'; const c = window[{key}]; \
             if (c) return c.run({source}, arguments); \
             return (0, eval)('(' + {source} + ')').apply(undefined, arguments); }})"
        )
    } else {
        format!(
            "(() => {{ 'use strict'; const c = window[{key}]; \
             return c ? c.run({source}) : (0, eval)({source}); }})()"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_is_rewritten_to_run_through_the_control_and_nothing_else_is() {
        let timers = StepTimers::new();
        let mut call = json!({ "expression": "() => { setTimeout(f, 1); }", "isFunction": true });
        assert!(timers.track(&mut call));
        let expression = call["expression"].as_str().unwrap();
        assert!(expression.starts_with("(function () {"));
        assert!(expression.contains(&format!("window[\"{}\"]", timers.key)));
        // The source crosses as a JSON string, which is a JavaScript string literal.
        assert!(expression.contains(r#"c.run("() => { setTimeout(f, 1); }", arguments)"#));
        let mut plain = json!({ "expression": "document.title = 'x'", "isFunction": false });
        assert!(timers.track(&mut plain));
        assert!(
            plain["expression"]
                .as_str()
                .unwrap()
                .contains(r#"c.run("document.title = 'x'")"#)
        );
        let mut none = json!({ "selector": "button" });
        assert!(!timers.track(&mut none));
        assert_eq!(none, json!({ "selector": "button" }));
    }

    #[test]
    fn each_guard_has_its_own_key_and_the_script_is_called_with_it() {
        let (a, b) = (StepTimers::new(), StepTimers::new());
        assert_ne!(a.key, b.key);
        let script = a.init_script();
        assert!(script.starts_with("(// "));
        assert!(script.ends_with(&format!(")(\"{}\");", a.key)));
    }

    /// Fake timer functions for a JavaScript context with no browser: each queues its
    /// callback under a new id, and `fire(id)` runs it (an interval's stays queued).
    const FAKE_TIMERS: &str = r#"
        globalThis.window = globalThis;
        globalThis.queue = [];
        let nextId = 1;
        const setter = (name, repeat) => ({ [name](cb, ms, ...extra) {
            const id = nextId++; queue.push({ id, cb, repeat, extra }); return id; } })[name];
        const clearer = (name) => ({ [name](id) {
            const i = queue.findIndex((t) => t.id === id); if (i >= 0) queue.splice(i, 1); } })[name];
        globalThis.setTimeout = setter('setTimeout', false);
        globalThis.setInterval = setter('setInterval', true);
        globalThis.clearTimeout = clearer('clearTimeout');
        globalThis.clearInterval = clearer('clearInterval');
        globalThis.requestAnimationFrame = setter('requestAnimationFrame', false);
        globalThis.cancelAnimationFrame = clearer('cancelAnimationFrame');
        globalThis.requestIdleCallback = setter('requestIdleCallback', false);
        globalThis.cancelIdleCallback = clearer('cancelIdleCallback');
        globalThis.fire = (id) => {
            const i = queue.findIndex((t) => t.id === id);
            const t = queue[i];
            if (!t.repeat) queue.splice(i, 1);
            t.cb(...(t.extra.length > 0 ? t.extra : [16]));
        };
        globalThis.newest = () => queue[queue.length - 1].id;
        globalThis.failures = [];
        globalThis.check = (ok, what) => { if (!ok) failures.push(what); };
        const names = ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval',
            'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback',
            'cancelIdleCallback', 'toString'];
        const of = (name) => name === 'toString' ? Function.prototype.toString : globalThis[name];
        const holder = (name) => name === 'toString' ? Function.prototype : globalThis;
        globalThis.looks = () => names.map((name) => {
            const d = Object.getOwnPropertyDescriptor(holder(name), name);
            return [name, Function.prototype.toString.call(of(name)), of(name).name,
                of(name).length, d.enumerable, d.writable, d.configurable, 'prototype' in of(name)];
        });
    "#;

    /// Runs `script` (JavaScript that may call `check`) in a context with fake timers and the
    /// init script installed, `run(source)` and `runFn(source)` running a script of step code
    /// the way the rewritten calls do, and returns what failed.
    fn bookkeeping(script: &str) -> Vec<String> {
        let timers = StepTimers::new();
        let run_fn = tracked_expression(&timers.key, "SOURCE", true);
        let run_expression = tracked_expression(&timers.key, "SOURCE", false);
        let harness = format!(
            "{FAKE_TIMERS}
            const before = JSON.stringify(looks());
            {init}
            {init}
            check(JSON.stringify(looks()) === before, 'the wrappers look different: ' + JSON.stringify(looks()));
            globalThis.c = window[{key}];
            check(Object.keys(window).indexOf({key}) < 0, 'the control is enumerable');
            check(Object.isFrozen(c), 'the control can be changed');
            globalThis.runFn = (source, ...args) => (0, eval)({run_fn}.split('\"SOURCE\"').join(JSON.stringify(source)))(...args);
            globalThis.run = (source) => (0, eval)({run_expression}.split('\"SOURCE\"').join(JSON.stringify(source)));
            ",
            init = timers.init_script(),
            key = json!(timers.key),
            run_fn = json!(run_fn),
            run_expression = json!(run_expression),
        );
        let runtime = rquickjs::Runtime::new().unwrap();
        let context = rquickjs::Context::full(&runtime).unwrap();
        let mut failures = Vec::new();
        for part in [harness.as_str(), script] {
            context.with(|ctx| {
                if let Err(err) = ctx.eval::<(), _>(part) {
                    let thrown = ctx.catch();
                    failures.push(format!("{err}: {thrown:?}"));
                }
            });
            while runtime.execute_pending_job().unwrap_or(false) {}
        }
        context.with(|ctx| {
            let found: Vec<String> = ctx.eval("failures").unwrap();
            failures.extend(found);
        });
        failures
    }

    #[test]
    fn the_apps_timers_are_not_tracked_and_step_codes_are_until_they_fire() {
        let failures = bookkeeping(
            r#"
            const app = setTimeout(() => {}, 10);
            requestAnimationFrame(() => requestAnimationFrame(() => {}));
            check(c.pending() === 0, 'an app timer is tracked');
            fire(app);
            fire(newest());
            check(c.pending() === 0, "an app's frame loop is tracked");
            check(runFn('(d) => { setTimeout((x) => { globalThis.got = x; }, 400, d); return d + 1; }', 5) === 6,
                'the function did not answer');
            check(c.pending() === 1, 'a timeout of step code is not tracked');
            fire(newest());
            check(globalThis.got === 5 && c.pending() === 0, 'a fired timeout is still pending');
            check(run('setTimeout(() => {}, 5), 42') === 42, 'the expression did not answer');
            check(c.pending() === 1, "an expression's timeout is not tracked");
            fire(newest());
            check(runFn('m(x) { requestIdleCallback(() => {}); return x * 2; }', 4) === 8,
                'a method shorthand did not run');
            check(c.pending() === 1, 'an idle callback is not tracked');
            fire(newest());
            check(c.pending() === 0, 'a fired idle callback is still pending');
            runFn("() => { setTimeout('globalThis.s = 1', 5); }");
            check(c.pending() === 1, 'a timeout of code is not tracked');
            fire(newest());
            check(globalThis.s === 1 && c.pending() === 0, 'a timeout of code did not run');
            "#,
        );
        assert!(failures.is_empty(), "{failures:#?}");
    }

    #[test]
    fn chains_intervals_and_clearing_are_followed() {
        let failures = bookkeeping(
            r#"
            runFn('() => { setTimeout(() => { requestAnimationFrame(() => { globalThis.chain = 1; }); }, 10); }');
            check(c.pending() === 1, 'the first timer is not tracked');
            fire(newest());
            check(c.pending() === 1, 'the timer a tracked callback set is not tracked');
            fire(newest());
            check(globalThis.chain === 1 && c.pending() === 0, 'the chain did not end');
            runFn('() => { globalThis.iv = setInterval(() => {}, 10); }');
            fire(iv);
            fire(iv);
            check(c.pending() === 1, 'an interval stops being pending when it fires');
            clearTimeout(iv);
            check(c.pending() === 0, 'a cleared interval is still pending');
            runFn('() => { const t = setTimeout(() => {}, 400); clearTimeout(t); const f = requestAnimationFrame(() => {}); cancelAnimationFrame(f); }');
            check(c.pending() === 0, 'timers step code cleared are pending');
            runFn("() => { setTimeout(() => { throw new Error('boom'); }, 1); }");
            try { fire(newest()); } catch (e) {}
            setTimeout(() => {}, 1);
            check(c.pending() === 0, 'a callback that threw left the scope open');
            let threw = false;
            try { runFn("() => { throw new Error('out'); }"); } catch (e) { threw = e.message === 'out'; }
            setTimeout(() => {}, 1);
            check(threw && c.pending() === 0, 'a script that threw left the scope open');
            "#,
        );
        assert!(failures.is_empty(), "{failures:#?}");
    }

    #[test]
    fn settled_answers_once_the_tracked_timers_fired() {
        let failures = bookkeeping(
            r#"
            c.settled(1000).then((n) => { globalThis.quiet = n; });
            runFn('() => { globalThis.t = setTimeout(() => {}, 400); }');
            globalThis.after = 'waiting';
            c.settled(1000).then((n) => { globalThis.after = n; });
            Promise.resolve().then(() => {
                check(globalThis.quiet === 0, 'it did not answer at once with nothing pending');
                check(globalThis.after === 'waiting', 'it answered before the timer fired');
                fire(t);
            }).then(() => {}).then(() => {
                check(globalThis.after === 0, 'it did not answer once the timer fired: ' + globalThis.after);
            });
            "#,
        );
        assert!(failures.is_empty(), "{failures:#?}");
    }
}
