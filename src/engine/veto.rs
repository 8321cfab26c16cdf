//! The heal veto: a mechanical check, after healed code passed and before it is written or
//! counted green, that the healed code still checks everything the cached code checked. Healing
//! may change how elements are found and what is done to them; never what is expected. No LLM
//! verdict can talk past it.
//!
//! Main function: [`review`], which compares the [`Checks`] of the old and the new code and
//! returns the first [`Veto`] it finds. The rules are documented in `docs/engine.md` (The heal veto).

use std::fmt;

use crate::engine::checks::{Assertion, Checks, Value};
use crate::engine::sentence::{expected_change, quoted_literals};

/// Why a heal was refused.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Veto {
    /// What the healed code does to the checks, in one line.
    pub reason: String,
    /// The old assertion concerned, as written, when there is one.
    pub old: Option<String>,
    /// The new assertion it became, when there is one.
    pub new: Option<String>,
}

impl Veto {
    fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
            old: None,
            new: None,
        }
    }

    fn about(reason: impl Into<String>, old: &Assertion, new: Option<&Assertion>) -> Self {
        Self {
            reason: reason.into(),
            old: Some(old.text.clone()),
            new: new.map(|n| n.text.clone()),
        }
    }
}

impl fmt::Display for Veto {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)?;
        if let Some(old) = &self.old {
            write!(f, "\n  old: {old}")?;
        }
        if let Some(new) = &self.new {
            write!(f, "\n  new: {new}")?;
        }
        Ok(())
    }
}

/// Matchers a healed assertion may use in place of a cached one: each is at least as strict.
const STRICTER: &[(&str, &str)] = &[
    ("toContainText", "toHaveText"),
    ("toBeAttached", "toBeVisible"),
    ("toEqual", "toStrictEqual"),
    ("toBeTruthy", "toBe"),
    ("toBeTruthy", "toEqual"),
    ("toBeTruthy", "toStrictEqual"),
    ("toBeDefined", "toBe"),
    ("toBeDefined", "toEqual"),
    ("toBeDefined", "toStrictEqual"),
    ("toMatchObject", "toEqual"),
    ("toMatchObject", "toStrictEqual"),
];

/// Reviews a heal of `old` into `new` for the step `sentence`; `expect_timeout_ms` is the
/// configured expect timeout (a raised `timeout` may not exceed it, nor the old code's own).
pub(crate) fn review(
    old: &str,
    new: &str,
    sentence: &str,
    expect_timeout_ms: f64,
) -> Result<(), Veto> {
    let old = Checks::of(old).map_err(|e| Veto::new(format!("the cached code: {e}")))?;
    let new = Checks::of(new).map_err(|e| Veto::new(format!("the healed code: {e}")))?;
    if new.rebinds_expect && !old.rebinds_expect {
        return Err(Veto::new(
            "the healed code redefines `expect`, so its assertions may check nothing",
        ));
    }
    if new.assertions.len() < old.assertions.len() {
        return Err(Veto::new(format!(
            "the healed code has fewer assertions: {} instead of {}",
            new.assertions.len(),
            old.assertions.len()
        )));
    }
    if new.redefines_step && !old.redefines_step {
        return Err(Veto::new(
            "the healed code defines or assigns `step` more than once, so the checks read may not \
             be the ones that run",
        ));
    }
    if new.page_scripts > old.page_scripts {
        return Err(Veto::new(
            "the healed code runs JavaScript in the page that the cached code did not \
             (`evaluate`, `setContent`, ...): it could change what the checks see",
        ));
    }
    if new.patches > old.patches {
        return Err(Veto::new(
            "the healed code replaces members of globals or prototypes, or runs code from strings \
             (`eval`, `Function`, `with`): it could make any check pass",
        ));
    }
    // A hand-written `throw` check may become an assertion: extra assertions stand in for it.
    let extra_assertions = new.assertions.len() - old.assertions.len();
    if new.throws + extra_assertions < old.throws {
        return Err(Veto::new(format!(
            "the healed code drops a check that throws: {} `throw` instead of {}",
            new.throws, old.throws
        )));
    }
    let quoted = quoted_literals(sentence);
    // Each old assertion must be kept by a new one, in order; extra new assertions are free.
    let mut next = 0;
    for (index, kept) in old.assertions.iter().enumerate() {
        let found = new.assertions[next..].iter().position(|candidate| {
            weakening(kept, candidate, sentence, expect_timeout_ms).is_none()
        });
        match found {
            Some(offset) => next += offset + 1,
            None => {
                // Explain with the closest candidate: the same position, else the last one.
                let shown = new
                    .assertions
                    .get(next.max(index))
                    .or_else(|| new.assertions.last());
                let why = shown.and_then(|n| weakening(kept, n, sentence, expect_timeout_ms));
                return Err(Veto::about(
                    why.unwrap_or_else(|| "the healed code no longer has this assertion".into()),
                    kept,
                    shown,
                ));
            }
        }
    }
    for literal in quoted {
        let in_old = old.strings.iter().any(|s| s.contains(&literal));
        let in_new = new.strings.iter().any(|s| s.contains(&literal));
        if in_old && !in_new {
            return Err(Veto::new(format!(
                "the healed code no longer uses {literal:?}, which the step sentence names and \
                 the cached code used"
            )));
        }
    }
    Ok(())
}

/// How `new` is weaker than `old`, or `None` when it checks at least as much.
fn weakening(old: &Assertion, new: &Assertion, sentence: &str, timeout_ms: f64) -> Option<String> {
    if new.negated != old.negated {
        return Some(if new.negated {
            "the assertion was negated (`.not` added)".into()
        } else {
            "the assertion was negated (`.not` removed)".into()
        });
    }
    if !matcher_keeps(&old.matcher, &new.matcher) {
        return Some(format!(
            "the matcher `{}` became `{}`, which checks less",
            old.matcher, new.matcher
        ));
    }
    if new.poll != old.poll {
        return Some("the assertion changed how it is polled (`expect.poll`)".into());
    }
    let (o, n) = (&old.escapes, &new.escapes);
    if n.soft && !o.soft {
        return Some("the assertion was made soft (`expect.soft` never fails the step)".into());
    }
    if n.in_try && !o.in_try {
        return Some(
            "the assertion was wrapped in `try`/`catch`, so its failure is swallowed".into(),
        );
    }
    if n.caught && !o.caught {
        return Some("the assertion's failure is caught (`.catch(...)`)".into());
    }
    if n.unawaited && !o.unawaited {
        return Some(
            "the assertion is no longer awaited, so its failure is never observed (`await` it, or \
             `await Promise.all([...])`)"
                .into(),
        );
    }
    if n.conditional && !o.conditional {
        return Some(
            "the assertion was made conditional (an `if`, `?:`, `&&`, loop, callback or an \
             earlier `return`), so it may never run"
                .into(),
        );
    }
    if is_constant(&new.subject) && !is_constant(&old.subject) {
        return Some(format!(
            "the assertion now checks a constant ({}) instead of the page",
            new.subject.shown()
        ));
    }
    if let Some(why) = narrowed(old, new) {
        return Some(why);
    }
    let upgraded_from_presence = old.expected.is_empty()
        && old.matcher != new.matcher
        && new.expected.iter().all(is_truthy_literal);
    if !upgraded_from_presence
        && let Some(why) = expected_change(&old.expected, &new.expected, sentence)
    {
        return Some(why);
    }
    if new.options != old.options {
        return Some(format!(
            "the assertion's options changed from {} to {}",
            old.options.as_deref().unwrap_or("none"),
            new.options.as_deref().unwrap_or("none")
        ));
    }
    let allowed = old.timeout.unwrap_or(0.0).max(timeout_ms);
    if let Some(raised) = new.timeout
        && raised > allowed
    {
        return Some(format!(
            "the assertion's timeout was raised to {} ms, above the {} ms allowed",
            shown_ms(raised),
            shown_ms(allowed)
        ));
    }
    None
}

/// Matchers whose result depends on how many elements the subject matches.
const COUNTING: &[&str] = &["toHaveCount", "toHaveLength", "toHaveValues"];

/// Locator methods that narrow a locator to fewer elements.
const NARROWING: &[&str] = &[".first()", ".last()", ".nth(", ".filter("];

/// A counting assertion (or one expecting a list) whose subject was narrowed (`.first()`,
/// `.nth(...)`, `.filter(...)`), so it can no longer see extra elements.
fn narrowed(old: &Assertion, new: &Assertion) -> Option<String> {
    let counts = COUNTING.contains(&new.matcher.as_str())
        || new.expected.iter().any(|v| matches!(v, Value::List(_)));
    if !counts {
        return None;
    }
    let (Value::Expression(old_subject), Value::Expression(new_subject)) =
        (&old.subject, &new.subject)
    else {
        return None;
    };
    let uses = |text: &str, method: &str| text.matches(method).count();
    NARROWING
        .iter()
        .find(|method| uses(new_subject, method) > uses(old_subject, method))
        .map(|method| {
            format!(
                "the assertion's subject was narrowed with `{}`, so `{}` can no longer see every \
                 element",
                method.trim_end_matches(['(', ')']),
                new.matcher
            )
        })
}

/// A subject that is a value written in the code rather than something read from the page.
fn is_constant(subject: &Value) -> bool {
    match subject {
        Value::Str(_) | Value::Number(_) | Value::Regex { .. } => true,
        Value::List(items) => items.iter().all(is_constant),
        Value::Expression(text) => matches!(text.as_str(), "true" | "false" | "null" | "undefined"),
    }
}

/// A value that `toBeTruthy()` / `toBeDefined()` would accept too, written as a literal:
/// checking for it is stricter.
fn is_truthy_literal(value: &Value) -> bool {
    match value {
        Value::Str(s) => !s.is_empty(),
        Value::Number(n) => *n != 0.0 && !n.is_nan(),
        Value::Regex { .. } | Value::List(_) => true,
        Value::Expression(text) => text == "true",
    }
}

fn shown_ms(ms: f64) -> String {
    if ms.is_finite() {
        format!("{ms}")
    } else {
        "an unknown number of".into()
    }
}

fn matcher_keeps(old: &str, new: &str) -> bool {
    old == new || STRICTER.contains(&(old, new))
}

#[cfg(test)]
#[path = "veto_tests.rs"]
mod tests;
