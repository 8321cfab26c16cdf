//! Playwright's planner plans (`specs/*.plan.md`, written by its test-planner agent) read into
//! `.steps` text: each `#### N.M. name` scenario is a test, tagged with its `### N. group`;
//! each numbered step and each `- expect:` bullet under it is one step sentence, in order. The
//! plan's seed (`**Seed:**`), which opens the app before every scenario, is a `background:`
//! that opens the app.
//!
//! Main entry point: [`plan_to_steps`].

use super::steps_writer::{Converted, StepsWriter, content};

/// A plan scenario as read.
#[derive(Debug, Default, PartialEq, Eq)]
struct PlanTest {
    name: String,
    group: Option<String>,
    file: Option<String>,
    steps: Vec<String>,
}

/// What a plan holds.
#[derive(Debug, Default, PartialEq, Eq)]
struct Plan {
    title: Option<String>,
    seed: Option<String>,
    tests: Vec<PlanTest>,
}

/// The `.steps` text of the plan `source` (named `display` in its comments), and how many
/// sentences it holds; `None` when the plan holds no scenario with steps.
pub(super) fn plan_to_steps(display: &str, source: &str) -> Option<(Converted, usize)> {
    let plan = read(source);
    if plan.tests.iter().all(|t| t.steps.is_empty()) {
        return None;
    }
    let mut out = StepsWriter::default();
    out.comment(&format!("Imported by `prettyplay import` from {display}."));
    if let Some(title) = &plan.title {
        out.comment(title);
    }
    let mut sentences = 0;
    if let Some(seed) = &plan.seed {
        out.line("");
        out.comment(&format!(
            "The plan's seed ({seed}) opens the app before every scenario."
        ));
        out.line("background:\n  open the app");
        sentences += 1;
    }
    let mut names: Vec<String> = Vec::new();
    for test in plan.tests.iter().filter(|t| !t.steps.is_empty()) {
        let mut name = test.name.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{} ({n})", test.name);
            n += 1;
        }
        names.push(name.clone());
        out.line("");
        if let Some(file) = &test.file {
            out.comment(&format!("Playwright's test: {file}"));
        }
        let tag = test
            .group
            .as_deref()
            .map(|g| format!(" @{}", tag_of(g)))
            .unwrap_or_default();
        out.note("", [name.as_str()]);
        out.line(&format!("test: {}{tag}", content(&name)));
        for step in &test.steps {
            out.note("  ", [step.as_str()]);
            out.line(&format!("  {}", content(step)));
            sentences += 1;
        }
    }
    Some((out.finish(), sentences))
}

fn read(source: &str) -> Plan {
    let mut plan = Plan::default();
    let mut group: Option<String> = None;
    let mut in_steps = false;
    for raw in source.lines() {
        let line = raw.trim();
        if let Some(title) = line.strip_prefix("# ") {
            plan.title.get_or_insert_with(|| title.trim().to_owned());
            continue;
        }
        if let Some(heading) = line.strip_prefix("#### ") {
            plan.tests.push(PlanTest {
                name: without_number(heading),
                group: group.clone(),
                ..PlanTest::default()
            });
            in_steps = false;
            continue;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            group = Some(without_number(heading));
            in_steps = false;
            continue;
        }
        if line.starts_with("## ") {
            group = None;
            in_steps = false;
            continue;
        }
        if let Some(seed) = field(line, "Seed") {
            plan.seed.get_or_insert(seed);
            continue;
        }
        let Some(test) = plan.tests.last_mut() else {
            continue;
        };
        if let Some(file) = field(line, "File") {
            test.file = Some(file);
            continue;
        }
        if line.starts_with("**Steps:**") {
            in_steps = true;
            continue;
        }
        if !in_steps || line.is_empty() {
            continue;
        }
        if let Some(expect) = line
            .strip_prefix("- expect:")
            .or_else(|| line.strip_prefix("* expect:"))
        {
            push_sentence(&mut test.steps, expect);
        } else if let Some(step) = numbered(line) {
            push_sentence(&mut test.steps, step);
        }
    }
    plan
}

/// `**Name:** value` (the value without backticks).
fn field(line: &str, name: &str) -> Option<String> {
    let rest = line.strip_prefix(&format!("**{name}:**"))?;
    Some(rest.trim().trim_matches('`').to_owned())
}

/// `1.2. text` → `text`; a heading without a number stays whole.
fn without_number(heading: &str) -> String {
    let heading = heading.trim();
    let number_end = heading
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(0);
    if number_end > 0 && heading[..number_end].contains('.') {
        heading[number_end..].trim().to_owned()
    } else {
        heading.to_owned()
    }
}

/// The text of a numbered list item `3. text`.
fn numbered(line: &str) -> Option<&str> {
    let digits = line.find(|c: char| !c.is_ascii_digit())?;
    if digits == 0 {
        return None;
    }
    line[digits..]
        .strip_prefix(". ")
        .or_else(|| line[digits..].strip_prefix(") "))
}

/// A sentence as a `.steps` line: trimmed, one line, with no trailing period, and not starting
/// with what `.steps` reads as something else.
fn push_sentence(steps: &mut Vec<String>, text: &str) {
    let text = collapse_outside_quotes(text);
    let text = text.trim_end_matches('.').trim();
    if text.is_empty() {
        return;
    }
    let starts_badly = ["#", "|", "test", "background:", "examples:"]
        .iter()
        .any(|bad| text.to_ascii_lowercase().starts_with(bad));
    if starts_badly {
        steps.push(format!("then {text}"));
    } else {
        steps.push(text.to_owned());
    }
}

/// `text` with each run of whitespace outside quotes made one space. Inside a quote the spaces
/// are the value (`type '   x   '` tests that the app trims), so they are kept as written. A
/// quote opens only at the start of a word, so the apostrophe of `don't` opens none.
fn collapse_outside_quotes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<char> = None;
    let mut previous: Option<char> = None;
    let mut chars = text.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match open {
            Some(close) => {
                let ends_word = chars.peek().is_none_or(|n| !n.is_alphanumeric());
                if c == close && ends_word {
                    open = None;
                }
                out.push(c);
            }
            None if c.is_whitespace() => {
                if !previous.is_some_and(char::is_whitespace) {
                    out.push(' ');
                }
            }
            None => {
                let starts_word = previous.is_none_or(|p| p.is_whitespace() || p == '(');
                open = match c {
                    '\'' | '"' | '`' if starts_word => Some(c),
                    '\u{201c}' if starts_word => Some('\u{201d}'),
                    _ => None,
                };
                out.push(c);
            }
        }
        previous = Some(c);
    }
    out
}

/// A group heading as a tag: lowercase words joined by `-` (`Adding Todos` → `adding-todos`).
fn tag_of(group: &str) -> String {
    group
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_inside_quotes_are_kept_and_others_collapsed() {
        assert_eq!(
            collapse_outside_quotes("  Type   '   x  y   '  (with spaces)\tand press Enter "),
            "Type '   x  y   ' (with spaces) and press Enter"
        );
        assert_eq!(
            collapse_outside_quotes("don't   add  \"a  b\""),
            "don't add \"a  b\""
        );
        // An unclosed quote keeps the rest as written.
        assert_eq!(collapse_outside_quotes("add 'a  b"), "add 'a  b");
    }

    const PLAN: &str = "\
# TodoMVC Basic Operations Test Plan

## Application Overview

An overview that is not a scenario.

## Test Scenarios

### 1. Adding Todos

**Seed:** `tests/seed.spec.ts`

#### 1.1. should-add-single-todo

**File:** `tests/adding-todos/should-add-single-todo.spec.ts`

**Steps:**
  1. Type 'Buy groceries' into the input field
    - expect: The text appears in the input field
  2. Press Enter to submit the todo
    - expect: The todo counter shows '1 item left'.

#### 1.2. should-not-add-empty-todo

**Steps:**
  1. Press Enter
    - expect: No todo is added to the list

### 2. Completing Todos

#### 2.1. should-complete-single-todo

**Steps:**
  1. Add a todo 'Buy groceries'
";

    #[test]
    fn a_plan_becomes_tests_of_its_steps_and_expectations() {
        let (steps, count) = plan_to_steps("specs/basic.plan.md", PLAN).expect("a plan");
        assert!(!steps.escaped);
        let steps = steps.text;
        assert_eq!(count, 8);
        assert_eq!(
            steps,
            "# Imported by `prettyplay import` from specs/basic.plan.md.\n\
             # TodoMVC Basic Operations Test Plan\n\
             \n\
             # The plan's seed (tests/seed.spec.ts) opens the app before every scenario.\n\
             background:\n  open the app\n\
             \n\
             # Playwright's test: tests/adding-todos/should-add-single-todo.spec.ts\n\
             test: should-add-single-todo @adding-todos\n\
             \x20 Type 'Buy groceries' into the input field\n\
             \x20 The text appears in the input field\n\
             \x20 Press Enter to submit the todo\n\
             \x20 The todo counter shows '1 item left'\n\
             \n\
             test: should-not-add-empty-todo @adding-todos\n\
             \x20 Press Enter\n\
             \x20 No todo is added to the list\n\
             \n\
             test: should-complete-single-todo @completing-todos\n\
             \x20 Add a todo 'Buy groceries'\n"
        );
        // What it writes is a valid `.steps` file.
        let parsed = crate::scenario::parse("x.steps", steps.as_bytes()).expect("parses");
        assert_eq!(parsed.tests.len(), 3);
        assert_eq!(parsed.background.len(), 1);
    }

    #[test]
    fn a_text_without_scenarios_is_no_plan() {
        assert_eq!(plan_to_steps("x.plan.md", "# Title\n\nJust prose.\n"), None);
    }

    #[test]
    fn control_characters_are_written_as_escapes() {
        let hostile = "# Plan \u{1b}[2J\u{1b}]0;pwned\u{7}\n\n**Seed:** `seed\u{9b}31m.ts`\n\n\
                       #### 1.1. fine\u{202e}\n\n**File:** `a\u{202e}b.spec.ts`\n\n**Steps:**\n  \
                       1. Open the app\n  2. Type \u{1b}[2J\n";
        let (steps, count) = plan_to_steps("specs/x\u{1b}.plan.md", hostile).expect("a plan");
        assert_eq!(count, 3);
        assert!(steps.escaped);
        let steps = steps.text;
        assert!(
            !steps.chars().any(crate::visible::is_unsafe),
            "a raw control character: {steps:?}"
        );
        assert!(
            steps.contains("# Plan \\x1b[2J\\x1b]0;pwned\\x07\n"),
            "{steps}"
        );
        assert!(steps.contains("seed\\u{9b}31m.ts"), "{steps}");
        assert!(steps.contains("a\\u{202e}b.spec.ts"), "{steps}");
        assert!(steps.contains("from specs/x\\x1b.plan.md."), "{steps}");
        assert!(steps.contains("test: fine\\u{202e}\n"), "{steps}");
        assert!(steps.contains("\n  Type \\x1b[2J\n"), "{steps}");
        // The header and the step that hold escapes each have the note; the others not.
        assert_eq!(steps.matches("# The next line holds").count(), 2, "{steps}");
        let parsed = crate::scenario::parse("x.steps", steps.as_bytes()).expect("parses");
        assert_eq!(parsed.tests[0].steps[1].sentence, "Type \\x1b[2J");
    }
}
