//! The JUnit XML report (`--reporter junit`, `<output>/junit.xml`), in the shape GitHub Actions
//! (test-reporter actions), GitLab and Jenkins read: a `<testsuite>` per scenario file (per
//! browser project and file in a run of several browsers), a `<testcase>` per test with its
//! `<properties>` (the browser), its `<failure>` (and a `<flakyFailure>` or `<rerunFailure>` per
//! earlier failed attempt with `--retries`), and the steps in `<system-out>`. The schema it
//! follows is `tests/it/support/fixtures/reports/junit.xsd`; `docs/reports.md` describes it.
//!
//! Entry point: `render`, used by [`super::FileReport`].

use std::fmt::Write as _;
use std::time::Duration;

use super::details::{
    Attempt, Palette, failure_text, failure_verdict, heal_diff, seconds, write_attempt_failure,
    write_failure,
};
use super::record::{RunRecord, ScenarioGroup, StepRecord, StepStatus, TestRecord};
use super::xml::{escape, escape_attr};
use crate::runner::{FailureCause, StepSource, TestFailure, TestId, TestOutcome};

/// Seconds with millisecond precision, as JUnit's `time` attributes have them.
fn time(duration: Duration) -> String {
    format!("{:.3}", duration.as_secs_f64())
}

/// The `type` of a `<failure>`: `product_defect`, `incurable`, `llm_unavailable`, `cache_write`,
/// `heal_vetoed`, `browser_crash`,
/// `cache_miss`, `infrastructure`, `setup_failed`, or the step failure's label (`failed check`, `timeout`, ...).
fn failure_type(failure: &TestFailure) -> &'static str {
    match &failure.cause {
        FailureCause::Step(step) => step.kind.label(),
        FailureCause::CacheMiss => "cache_miss",
        FailureCause::Infrastructure(_) => "infrastructure",
        FailureCause::Engine(engine) => engine.kind.as_str(),
        FailureCause::SetupFailed(_) => "setup_failed",
    }
}

/// The `message` of a `<failure>`: the first line of the verdict's explanation, or of the error.
fn failure_message(test: &TestId, failure: &TestFailure) -> String {
    let text = match failure_verdict(failure) {
        Some(verdict) => format!(
            "{} ({}): {}",
            verdict.category,
            verdict.source.describe(verdict.category),
            verdict.explanation
        ),
        None => failure_text(test, failure),
    };
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// The document for a run.
pub(crate) fn render(record: &RunRecord) -> String {
    let stats = record.totals();
    let tests = record.all_tests();
    let skipped = tests.iter().filter(|t| is_skipped(t)).count();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    // Writing to a String cannot fail.
    let _ = writeln!(
        xml,
        "<testsuites name=\"prettyplay\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{skipped}\" time=\"{}\">",
        tests.len(),
        tests.iter().filter(|t| t.failure().is_some()).count(),
        time(stats.duration),
    );
    for (group, tests) in record.by_scenario() {
        let failures = tests.iter().filter(|t| t.failure().is_some()).count();
        let skipped = tests.iter().filter(|t| is_skipped(t)).count();
        let duration: Duration = tests.iter().map(|t| t.duration).sum();
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{}\">",
            escape_attr(&group.to_string()),
            tests.len(),
            time(duration),
        );
        for test in tests {
            testcase(&mut xml, test);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// A test JUnit counts as skipped: one that did not finish, or that Ctrl-C stopped.
fn is_skipped(test: &TestRecord) -> bool {
    test.outcome.is_none() || test.interrupted()
}

/// The `<property>` elements of a testcase, as `(name, value)`: its browser project, as
/// `browser`, when it has one.
fn properties(test: &TestRecord) -> Vec<(&'static str, &str)> {
    let mut properties = Vec::new();
    if let Some(project) = &test.id.project {
        properties.push(("browser", project.as_str()));
    }
    properties
}

fn testcase(xml: &mut String, test: &TestRecord) {
    // The classname is the testcase's suite: with a project, `[firefox] scenarios/todo.steps`,
    // so that the same test in two browsers is two cases to the tools that key on it.
    let classname = ScenarioGroup::of(&test.id);
    let _ = writeln!(
        xml,
        "    <testcase classname=\"{classname}\" name=\"{name}\" time=\"{time}\" file=\"{scenario}\" line=\"{line}\">",
        classname = escape_attr(&classname.to_string()),
        scenario = escape_attr(&test.id.scenario),
        name = escape_attr(&test.id.name),
        time = time(test.duration),
        line = test.id.line,
    );
    let properties = properties(test);
    if !properties.is_empty() {
        xml.push_str("      <properties>\n");
        for (name, value) in properties {
            let _ = writeln!(
                xml,
                "        <property name=\"{}\" value=\"{}\"/>",
                escape_attr(name),
                escape_attr(value)
            );
        }
        xml.push_str("      </properties>\n");
    }
    if let Some(failure) = test.failure() {
        let mut details = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = write_failure(&mut details, Palette { colors: false }, &test.id, failure);
        let details = String::from_utf8_lossy(&details);
        let _ = writeln!(
            xml,
            "      <failure message=\"{}\" type=\"{}\">{}</failure>",
            escape_attr(&failure_message(&test.id, failure)),
            escape_attr(failure_type(failure)),
            escape(details.trim_matches('\n')),
        );
    } else if test.interrupted() {
        xml.push_str("      <skipped message=\"interrupted (Ctrl-C, SIGTERM or SIGHUP) before it finished\"/>\n");
    } else if test.outcome.is_none() {
        xml.push_str("      <skipped message=\"the test did not finish\"/>\n");
    }
    // Surefire's elements for the attempts before the last (`--retries`), which quick-junit and
    // nextest write too: `flakyFailure` when the test then passed, `rerunFailure` when every
    // attempt failed.
    let element = if test.flaky() {
        "flakyFailure"
    } else {
        "rerunFailure"
    };
    for attempt in &test.retries {
        let mut details = Vec::new();
        let heading = Attempt {
            number: attempt.number,
            passed_on: match test.outcome {
                Some(TestOutcome::Flaky { attempts }) => Some(attempts),
                _ => None,
            },
        };
        let _ = write_attempt_failure(
            &mut details,
            Palette { colors: false },
            &test.id,
            &attempt.failure,
            Some(heading),
        );
        let details = String::from_utf8_lossy(&details);
        let _ = writeln!(
            xml,
            "      <{element} message=\"{}\" type=\"{}\"><stackTrace>{}</stackTrace><system-out>{}</system-out></{element}>",
            escape_attr(&failure_message(&test.id, &attempt.failure)),
            escape_attr(failure_type(&attempt.failure)),
            escape(details.trim_matches('\n')),
            escape(&steps_text(&test.id, &attempt.steps)),
        );
    }
    let _ = writeln!(
        xml,
        "      <system-out>{}</system-out>",
        escape(&system_out(test))
    );
    xml.push_str("    </testcase>\n");
}

/// The steps of a test's last attempt as plain text (`✓ 1. open the app (cached, 0.52s)`),
/// then its warnings and traces.
fn system_out(test: &TestRecord) -> String {
    let mut out = steps_text(&test.id, &test.steps);
    for warning in &test.warnings {
        let _ = writeln!(out, "warning: {warning}");
    }
    for trace in &test.traces {
        let _ = writeln!(out, "trace: {trace}");
    }
    // The images of a screenshot mismatch, in the attachment lines Jenkins and GitLab read
    // (as Playwright's JUnit reporter writes them).
    if let Some(images) = test.failure().and_then(|failure| failure.visual()) {
        let files = [
            Some(&images.expected),
            images.actual.as_ref(),
            images.diff.as_ref(),
        ];
        for path in files.into_iter().flatten() {
            let _ = writeln!(out, "[[ATTACHMENT|{}]]", path.display());
        }
    }
    out
}

/// Steps as plain text: `✓ 1. open the app (cached, 0.52s)`, with their settle retries,
/// console lines, heals and verdicts.
fn steps_text(id: &TestId, steps: &[StepRecord]) -> String {
    let mut out = String::new();
    for step in steps {
        let (mark, source) = match step.status {
            StepStatus::Passed(source) => (
                "✓",
                match source {
                    StepSource::Cached => "cached",
                    StepSource::Generated => "generated",
                    StepSource::Healed => "healed",
                },
            ),
            StepStatus::Failed => ("✗", "failed"),
            StepStatus::Unfinished => ("·", "unfinished"),
            StepStatus::Skipped => ("↷", "skipped"),
        };
        let _ = write!(
            out,
            "{mark} {}. {} ({source}, {})",
            step.index,
            step.sentence,
            seconds(step.duration)
        );
        if step.retries > 0 {
            let _ = write!(out, " after {} settle retr", step.retries);
            out.push_str(if step.retries == 1 { "y" } else { "ies" });
        }
        if step.line > 0 {
            let _ = write!(out, " at {}:{}", id.scenario, step.line);
        }
        out.push('\n');
        if let Some(reason) = &step.skip_reason {
            let _ = writeln!(out, "    skipped: optional, {reason}");
        }
        for line in &step.logs {
            let _ = writeln!(out, "    console: {line}");
        }
        if let Some(heal) = &step.heal {
            let _ = writeln!(out, "    healed: {}", heal.explanation);
            for line in heal_diff(&heal.old_code, &heal.new_code).lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        if let Some(verdict) = &step.verdict {
            let _ = writeln!(out, "    verdict: {verdict}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing::{self, redact};
    use crate::runner::RunEvent;

    fn record(events: &[RunEvent]) -> RunRecord {
        let mut record = RunRecord::default();
        for event in events {
            record.observe(event);
        }
        record
    }

    #[test]
    fn junit_report_has_a_suite_per_scenario_and_the_failure_with_its_verdict() {
        let xml = render(&record(&testing::events()));
        insta::assert_snapshot!(redact(&xml));
    }

    #[test]
    fn a_failure_shows_the_timeout_it_ran_out_and_the_code_written_before_it() {
        let test = testing::id("a.steps", "slow", 1);
        let events = [
            RunEvent::of_test(test.clone(), crate::runner::TestKind::Started),
            testing::finished(
                &test,
                crate::runner::TestOutcome::Failed(Box::new(testing::timed_out_failure())),
                0,
            ),
        ];
        let xml = render(&record(&events));
        assert!(
            xml.contains(
                "    timed out: the `expect` call waited its whole 5 s timeout, which is [browser] \
                 timeout (in prettyplay.toml;"
            ),
            "{xml}"
        );
        assert!(
            xml.contains(
                "  code of step 1 \"open the app\", written in this run:\n      1 | async \
                 function step(page) {\n      2 |   await page.goto('/other');"
            ),
            "{xml}"
        );
    }

    #[test]
    fn a_test_ctrl_c_stopped_is_skipped_not_failed() {
        let test = testing::id("a.steps", "stopped", 1);
        let events = [
            RunEvent::of_test(test.clone(), crate::runner::TestKind::Started),
            testing::finished(&test, testing::interrupted(), 0),
        ];
        let xml = render(&record(&events));
        assert!(xml.contains("failures=\"0\""), "{xml}");
        assert!(xml.contains("skipped=\"1\""), "{xml}");
        assert!(
            xml.contains(
                "<skipped message=\"interrupted (Ctrl-C, SIGTERM or SIGHUP) before it finished\"/>"
            ),
            "{xml}"
        );
        assert!(!xml.contains("<failure"), "{xml}");
    }

    #[test]
    fn markup_in_names_messages_and_code_is_escaped() {
        let test = testing::id("a&b.steps", "a <b>&\"quoted\"</b>]]>\u{1b}[31m", 1);
        let mut failure = testing::check_failure();
        failure.step = "</system-out><x>".into();
        failure.code = Some("if (a < b && c) { '</failure>' }".into());
        let events = [
            RunEvent::of_test(test.clone(), crate::runner::TestKind::Started),
            testing::finished(
                &test,
                crate::runner::TestOutcome::Failed(Box::new(failure)),
                0,
            ),
        ];
        let xml = render(&record(&events));
        assert!(
            xml.contains("name=\"a &lt;b&gt;&amp;&quot;quoted&quot;&lt;/b&gt;]]&gt;\""),
            "{xml}"
        );
        assert!(xml.contains("classname=\"a&amp;b.steps\""), "{xml}");
        assert!(xml.contains("'&lt;/failure&gt;'"), "{xml}");
        assert!(!xml.contains("<x>") && !xml.contains('\u{1b}'), "{xml}");
    }

    #[test]
    fn failure_message_is_the_first_line_of_the_verdict_or_the_error() {
        let test = testing::id("a.steps", "t", 1);
        assert_eq!(
            failure_message(&test, &testing::defect_failure()),
            "product_defect (from the LLM): expected the greeting \"Hello, Ada\", observed \"Hello, undefined\""
        );
        assert_eq!(
            failure_message(&test, &testing::check_failure()),
            "expect(locator).toHaveText(expected) failed"
        );
        assert_eq!(failure_type(&testing::check_failure()), "failed check");
        assert_eq!(failure_type(&testing::defect_failure()), "product_defect");
    }

    #[test]
    fn earlier_attempts_are_flaky_failures_or_rerun_failures() {
        let xml = render(&record(&testing::retried_events()));
        let flaky = xml
            .split("<testcase")
            .find(|t| t.contains("name=\"flaky\""))
            .unwrap();
        assert_eq!(flaky.matches("<flakyFailure ").count(), 1, "{flaky}");
        assert!(!flaky.contains("<failure "), "{flaky}");
        assert!(
            flaky.contains("type=\"failed check\"><stackTrace>──── FLAKY"),
            "{flaky}"
        );
        let broken = xml
            .split("<testcase")
            .find(|t| t.contains("name=\"broken\""))
            .unwrap();
        assert_eq!(broken.matches("<rerunFailure ").count(), 2, "{broken}");
        assert_eq!(broken.matches("<failure ").count(), 1, "{broken}");
        // A flaky test is not a failure.
        assert!(xml.contains("<testsuites name=\"prettyplay\" tests=\"2\" failures=\"1\""));
    }

    #[test]
    fn a_file_in_two_browsers_is_two_suites_whose_cases_name_their_browser() {
        let xml = render(&record(&testing::two_browser_events()));
        let suites: Vec<&str> = xml
            .lines()
            .filter(|l| l.trim_start().starts_with("<testsuite "))
            .collect();
        assert_eq!(suites.len(), 4, "{xml}");
        assert!(
            suites[0]
                .starts_with("  <testsuite name=\"[chromium] scenarios/login.steps\" tests=\"1\""),
            "{xml}"
        );
        assert!(
            suites[3]
                .starts_with("  <testsuite name=\"[firefox] scenarios/todo.steps\" tests=\"2\""),
            "{xml}"
        );
        let add = xml
            .split("<testcase")
            .find(|t| {
                t.contains("classname=\"[firefox] scenarios/todo.steps\" name=\"add a todo\"")
            })
            .unwrap();
        assert!(
            add.contains("file=\"scenarios/todo.steps\" line=\"2\">"),
            "{add}"
        );
        assert!(
            add.contains(
                ">\n      <properties>\n        <property name=\"browser\" value=\"firefox\"/>\n      \
                 </properties>\n"
            ),
            "{add}"
        );
        assert_eq!(xml.matches("<properties>").count(), 6, "{xml}");
        assert!(
            xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"prettyplay\" tests=\"6\" failures=\"2\""),
            "{xml}"
        );
    }

    #[test]
    fn a_run_without_projects_has_no_properties() {
        let xml = render(&record(&testing::events()));
        assert!(!xml.contains("<properties>"), "{xml}");
        assert!(!xml.contains("name=\"["), "{xml}");
    }
}
