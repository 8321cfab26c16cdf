//! What the sandbox gives step code, read from a live sandbox: the globals it defines and the
//! member names reachable from them and from the binding's classes. `prettyplay export` holds
//! cached code to this surface before it hands the code to Node.js, which has no sandbox.
//!
//! The surface is read by walking the very context step code runs in (QuickJS's built-ins and
//! the prelude's globals and classes), so it cannot drift from the binding. Two kinds of names
//! the walk finds are left out of it:
//! - the ones the binding defines only to refuse them (`require`, `process`, `fetch`,
//!   `download.saveAs`): step code that names them cannot have passed in the sandbox, so
//!   exported code that names them does something the sandbox never let it do;
//! - [`GLOBAL_ESCAPES`] and [`MEMBER_ESCAPES`]: names QuickJS has too, through which code in
//!   Node.js reaches past any list of names (the global object, code built from strings, the
//!   constructor of a function) or tells which host runs it (an error's stack).
//!
//! Main type: [`SandboxSurface`]; it is read by [`sandbox_surface`].

use std::collections::BTreeSet;

use crate::script::sandbox::walk_binding;
use crate::script::{FailureKind, StepFailure};

/// The globals the sandbox defines that exported code may not use: each reaches past a check
/// of names in Node.js.
pub(crate) const GLOBAL_ESCAPES: &[(&str, &str)] = &[
    (
        "globalThis",
        "the global object: any global by a computed name",
    ),
    ("Function", "code built from a string"),
    ("eval", "code built from a string"),
];

/// The members the sandbox has that exported code may not read: each reaches past a check of
/// names in Node.js, or tells Node.js from the sandbox.
pub(crate) const MEMBER_ESCAPES: &[(&str, &str)] = &[
    ("constructor", "a function's constructor is Function"),
    ("__proto__", "the prototype chain, up to Function"),
    ("__defineGetter__", "a getter put on any object"),
    ("__lookupGetter__", "a getter read off any object"),
    ("caller", "the calling function"),
    ("callee", "the running function"),
    (
        "stack",
        "the call stack, which tells Node.js from the sandbox",
    ),
    (
        "prepareStackTrace",
        "the call stack, which tells Node.js from the sandbox",
    ),
    (
        "captureStackTrace",
        "the call stack, which tells Node.js from the sandbox",
    ),
    (
        "stackTraceLimit",
        "the call stack, which tells Node.js from the sandbox",
    ),
];

/// Walks the sandbox's globals and the binding's classes. A function or getter whose source
/// calls the prelude's `refuse` is a refusal, not something the sandbox gives (the API listing
/// marks them the same way). A method whose first parameter is `pageFunction` (Playwright's
/// name) sends its function argument to the page, where it runs in the browser.
const WALKER: &str = r#"(function (binding) {
  const refuses = (f) => typeof f === 'function' && /\brefuse\(/.test(Function.prototype.toString.call(f));
  const globals = [];
  const members = new Set();
  const inPage = new Set();
  const seen = new Set();
  const visit = (object) => {
    if (object === null || (typeof object !== 'object' && typeof object !== 'function') || seen.has(object)) return;
    seen.add(object);
    for (const key of Reflect.ownKeys(object)) {
      if (typeof key !== 'string') continue;
      const d = Object.getOwnPropertyDescriptor(object, key);
      if (refuses(d.get) || refuses(d.value)) continue;
      members.add(key);
      if (typeof d.value === 'function' && /^[^(]*\(\s*pageFunction\b/.test(Function.prototype.toString.call(d.value))) {
        inPage.add(key);
      }
      if ('value' in d) visit(d.value);
    }
    visit(Object.getPrototypeOf(object));
  };
  for (const key of Reflect.ownKeys(globalThis)) {
    if (typeof key !== 'string') continue;
    const d = Object.getOwnPropertyDescriptor(globalThis, key);
    if (refuses(d.get) || refuses(d.value)) continue;
    globals.push(key);
    if ('value' in d) visit(d.value);
  }
  visit(binding.page);
  for (const cls of Object.values(binding.api)) visit(cls.prototype);
  return JSON.stringify({ globals, members: [...members], inPage: [...inPage] });
})"#;

/// The names step code may use in the sandbox, less the escapes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SandboxSurface {
    /// The globals the sandbox defines (`expect`, `request`, `JSON`, `Math`, ...).
    pub(crate) globals: BTreeSet<String>,
    /// Every member name reachable from the globals and the binding's classes (`click`,
    /// `toHaveText`, `map`, `includes`, ...).
    pub(crate) members: BTreeSet<String>,
    /// The methods whose first argument, a function, runs in the page (`evaluate`).
    pub(crate) in_page: BTreeSet<String>,
}

impl SandboxSurface {
    /// Whether `name` is one of [`MEMBER_ESCAPES`].
    pub(crate) fn is_member_escape(name: &str) -> bool {
        MEMBER_ESCAPES.iter().any(|(escape, _)| *escape == name)
    }
}

/// Reads the surface from a fresh sandbox context.
pub(crate) fn sandbox_surface() -> Result<SandboxSurface, StepFailure> {
    let walked = walk_binding("reading the sandbox's names", WALKER)?;
    let mut surface: SandboxSurface = serde_json::from_str(&walked).map_err(|err| {
        StepFailure::new(
            FailureKind::Script,
            format!("reading the sandbox's names: {err}"),
        )
    })?;
    // A global is a member of the global object too, so each list is taken out of both.
    for (escape, _) in GLOBAL_ESCAPES.iter().chain(MEMBER_ESCAPES) {
        surface.globals.remove(*escape);
        surface.members.remove(*escape);
    }
    Ok(surface)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_surface_holds_the_bindings_globals_and_methods_and_no_refusal_or_escape() {
        let surface = sandbox_surface().unwrap();
        for global in [
            "expect",
            "request",
            "console",
            "vars",
            "TimeoutError",
            "JSON",
            "Math",
            "Promise",
            "Object",
            "Array",
            "String",
            "RegExp",
        ] {
            assert!(surface.globals.contains(global), "{global}");
        }
        for refused in [
            "require",
            "process",
            "fetch",
            "XMLHttpRequest",
            "WebSocket",
            "setTimeout",
            "setInterval",
            "globalThis",
            "Function",
            "eval",
        ] {
            assert!(!surface.globals.contains(refused), "{refused}");
        }
        for member in [
            "click",
            "getByRole",
            "toHaveText",
            "toBeOK",
            "json",
            "map",
            "includes",
            "then",
            "keys",
        ] {
            assert!(surface.members.contains(member), "{member}");
        }
        for gone in ["constructor", "__proto__", "stack", "saveAs"] {
            assert!(!surface.members.contains(gone), "{gone}");
        }
        // Every method of the binding's table is a member of the surface.
        for method in crate::script::api_methods::API_METHODS {
            assert!(surface.members.contains(method.member()), "{}", method.name);
        }
        let in_page: Vec<&str> = surface.in_page.iter().map(String::as_str).collect();
        assert_eq!(in_page, ["evaluate", "evaluateAll", "waitForFunction"]);
    }
}
