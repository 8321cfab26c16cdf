//! The HTML report (`--reporter html`, `<output>/index.html`): one self-contained file (inline
//! CSS and JavaScript, screenshots as `data:` URLs, nothing fetched) with the summary, every test
//! and its steps (status, duration, cached/generated/healed, code), failures with their verdict
//! and screenshot, heal diffs, links to the tests' traces ([`super::trace_link`]), and a filter
//! box. A test of a browser project carries the project as a label. All text is escaped.
//!
//! Entry point: `render`, used by [`super::FileReport`].

use std::fmt::Write as _;
use std::path::Path;

use base64::Engine as _;

use super::details::{
    DiffLine, code_blocks, diff_lines, failure_label, failure_text, failure_verdict, heal_diff,
    llm_summary, seconds, timed_out_text,
};
use super::record::{Heal, RunRecord, StepRecord, StepStatus, TestRecord};
use super::trace_link::TraceLink;
use super::xml::{escape, escape_attr};
use crate::runner::{FailureCause, StepSource, TestFailure, TestId};
use crate::script::VisualDiff;

const CSS: &str = include_str!("assets/report.css");
const JS: &str = include_str!("assets/report.js");

fn source_name(source: StepSource) -> &'static str {
    match source {
        StepSource::Cached => "cached",
        StepSource::Generated => "generated",
        StepSource::Healed => "healed",
    }
}

/// The page for a run, to be written in `report_dir` (traces inside it are linked relative to
/// it).
pub(crate) fn render(record: &RunRecord, report_dir: &Path) -> String {
    let stats = record.totals();
    let mut html = String::with_capacity(16 * 1024);
    // Writing to a String cannot fail (here and below).
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>prettyplay report: {} passed, {} failed</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n",
        stats.passed, stats.failed
    );
    html.push_str("<header>\n<h1>prettyplay report</h1>\n<div class=\"summary\">\n");
    for (class, count, word) in [
        ("passed", stats.passed, "passed"),
        ("failed", stats.failed, "failed"),
        ("flaky", stats.flaky, "flaky"),
        ("healed", stats.healed_steps, "healed"),
        ("generated", stats.generated_steps, "generated"),
        ("cached", stats.cached_steps, "cached"),
    ] {
        let _ = writeln!(html, "<span class=\"count {class}\">{count} {word}</span>");
    }
    for (count, word) in [
        (stats.skipped_steps, "skipped (optional)"),
        (stats.reused_steps, "reused (LLM requests saved)"),
        (stats.checks_proven, "checks proven"),
        (stats.checks_unproven, "checks unproven"),
        (stats.checks_vacuous, "checks cannot fail"),
    ] {
        if count > 0 {
            let _ = writeln!(html, "<span class=\"count\">{count} {word}</span>");
        }
    }
    if stats.interrupted_tests > 0 {
        let _ = writeln!(
            html,
            "<span class=\"count\">{} interrupted</span>",
            stats.interrupted_tests
        );
    }
    if stats.not_run > 0 {
        let _ = writeln!(
            html,
            "<span class=\"count\">{} not run</span>",
            stats.not_run
        );
    }
    if let Some(started) = record.started {
        let _ = writeln!(
            html,
            "<span class=\"time\">started <time datetime=\"{started:.0}\">{}</time></span>",
            started.strftime("%Y-%m-%d %H:%M:%S UTC")
        );
    }
    let _ = writeln!(
        html,
        "<span class=\"time\">finished in {}</span>\n</div>",
        seconds(stats.duration)
    );
    if stats.llm_requests > 0 {
        let _ = writeln!(
            html,
            "<div class=\"llm\">{}</div>",
            escape(&llm_summary(&stats))
        );
    }
    let tests = record.all_tests();
    // The `p:` filter is offered only where some test has a browser project.
    let projects = if tests.iter().any(|t| t.id.project.is_some()) {
        ", or p:BROWSER"
    } else {
        ""
    };
    let _ = write!(
        html,
        "<label class=\"filter\">Filter tests \
         <input id=\"filter\" type=\"search\" autocomplete=\"off\" \
         placeholder=\"text, or a status: passed failed flaky healed generated cached{projects}\"></label>\n\
         <p id=\"no-match\" class=\"muted\" hidden>No test matches the filter.</p>\n</header>\n<main>\n",
    );
    for (n, test) in tests.into_iter().enumerate() {
        test_html(&mut html, n + 1, test, report_dir);
    }
    let _ = write!(html, "</main>\n<script>\n{JS}</script>\n</body>\n</html>\n");
    html
}

fn test_html(html: &mut String, n: usize, test: &TestRecord, report_dir: &Path) {
    let status = match (&test.outcome, test.passed()) {
        (None, _) => "unfinished",
        _ if test.flaky() => "flaky",
        (_, true) => "passed",
        _ if test.interrupted() => "interrupted",
        (_, false) => "failed",
    };
    let mut statuses = vec![status];
    if test.healed() {
        statuses.push("healed");
    }
    for (source, word) in [
        (StepSource::Generated, "generated"),
        (StepSource::Cached, "cached"),
    ] {
        if test
            .steps
            .iter()
            .any(|s| s.status == StepStatus::Passed(source))
        {
            statuses.push(word);
        }
    }
    let label = match status {
        "passed" => "PASS",
        "flaky" => "FLAKY",
        "failed" => "FAIL",
        "interrupted" => "INTERRUPTED",
        _ => "UNFINISHED",
    };
    // A test of a browser project carries it as a label, and as `data-project` for the
    // filter's `p:` words.
    let (data_project, project_label) = match &test.id.project {
        Some(project) => (
            format!(" data-project=\"{}\"", escape_attr(project)),
            format!("<span class=\"project\">{}</span> ", escape(project)),
        ),
        None => (String::new(), String::new()),
    };
    let _ = writeln!(
        html,
        "<details class=\"test {status}\" id=\"test-{n}\" data-status=\"{}\"{data_project}{}>\n\
         <summary><span class=\"status {status}\">{label}</span> {project_label}\
         <span class=\"scenario\">{}</span> › <span class=\"name\">{}</span> \
         <span class=\"duration\">{}</span></summary>\n<div class=\"test-body\">",
        statuses.join(" "),
        if status == "passed" { "" } else { " open" },
        escape(&test.id.scenario),
        escape(&test.id.name),
        seconds(test.duration),
    );
    // The attempts that failed before the last one (`--retries`), each with its steps and its
    // failure; then the last attempt.
    for attempt in &test.retries {
        let _ = writeln!(
            html,
            "<details class=\"attempt\" open><summary>attempt {} failed \
             <span class=\"duration\">{}</span></summary>",
            attempt.number,
            seconds(attempt.duration)
        );
        steps_html(html, &test.id.scenario, &attempt.steps);
        failure_html(html, &test.id, &attempt.steps, &attempt.failure);
        html.push_str("</details>\n");
    }
    if !test.retries.is_empty() {
        let _ = writeln!(
            html,
            "<p class=\"attempt-heading\">attempt {}{}</p>",
            test.retries.len() + 1,
            if test.flaky() { " passed" } else { "" }
        );
    }
    steps_html(html, &test.id.scenario, &test.steps);
    for warning in &test.warnings {
        let _ = writeln!(
            html,
            "<p class=\"warning\">warning: {}</p>",
            escape(warning)
        );
    }
    for trace in &test.traces {
        trace_html(html, &TraceLink::new(trace, report_dir));
    }
    if let Some(failure) = test.failure() {
        failure_html(html, &test.id, &test.steps, failure);
    }
    html.push_str("</div>\n</details>\n");
}

/// A trace: a link to the zip when it is inside the report's directory, and the command that
/// opens it in Playwright's trace viewer.
fn trace_html(html: &mut String, link: &TraceLink) {
    let command = escape(&link.command());
    let _ = match link {
        TraceLink::Inside { path, href } => writeln!(
            html,
            "<p class=\"note trace\">trace: <a href=\"{}\" download>{}</a> \
             <span class=\"muted\">— open it with <code>{command}</code> in the report's \
             directory</span></p>",
            escape_attr(href),
            escape(path),
        ),
        TraceLink::Outside { path } => writeln!(
            html,
            "<p class=\"note trace\">trace: {} <span class=\"muted\">— open it with \
             <code>{command}</code></span></p>",
            escape(path),
        ),
    };
}

fn steps_html(html: &mut String, scenario: &str, steps: &[StepRecord]) {
    html.push_str("<ol class=\"steps\">\n");
    for step in steps {
        step_html(html, scenario, step);
    }
    html.push_str("</ol>\n");
}

fn step_html(html: &mut String, scenario: &str, step: &StepRecord) {
    let (class, mark, badge) = match step.status {
        StepStatus::Passed(source) => ("passed", "✓", source_name(source)),
        StepStatus::Failed => ("failed", "✗", "failed"),
        StepStatus::Unfinished => ("unfinished", "·", "unfinished"),
        StepStatus::Skipped => ("skipped", "↷", "skipped"),
    };
    let _ = write!(
        html,
        "<li class=\"step {class}\" data-index=\"{}\"><span class=\"mark\">{mark}</span> \
         <span class=\"sentence\">{}</span> <span class=\"badge {badge}\">{badge}</span> \
         <span class=\"duration\">{}</span>",
        step.index,
        escape(&step.sentence),
        seconds(step.duration),
    );
    if step.line > 0 {
        let _ = write!(
            html,
            " <span class=\"where\">{}:{}</span>",
            escape(scenario),
            step.line
        );
    }
    html.push('\n');
    step_notes(html, step);
    if let Some(heal) = &step.heal {
        heal_html(html, heal);
    }
    // A failed step's verdict is shown with its failure.
    if let (Some(verdict), false) = (&step.verdict, step.status == StepStatus::Failed) {
        let _ = writeln!(
            html,
            "<p class=\"note\">verdict: <strong>{}</strong> ({}) — {} — {}</p>",
            escape(verdict.category.as_str()),
            escape(&verdict.source.describe(verdict.category)),
            escape(&verdict.explanation),
            escape(&verdict.recommendation)
        );
    }
    if let Some(code) = &step.code {
        let _ = writeln!(
            html,
            "<details class=\"code\"{}><summary>{}</summary><pre><code>{}</code></pre></details>",
            if step.status == StepStatus::Failed {
                " open"
            } else {
                ""
            },
            step.code_label,
            escape(code)
        );
    }
    html.push_str("</li>\n");
}

/// The notes under a step: why it was skipped, how its checks were proven, its settle retries
/// and LLM attempts, and its console output.
fn step_notes(html: &mut String, step: &StepRecord) {
    if let Some(reason) = &step.skip_reason {
        let _ = writeln!(
            html,
            "<p class=\"note muted skipped\">skipped: optional, {}</p>",
            escape(reason)
        );
    }
    if let Some(proof) = &step.proof {
        // A check that cannot fail is as loud as a failure; a proven or unproven one is a note.
        let class = match proof {
            crate::engine::StepProof::Vacuous(_) => "note proof vacuous",
            crate::engine::StepProof::Recorded(_) => "note muted proof",
        };
        let _ = writeln!(
            html,
            "<p class=\"{class}\">check {}</p>",
            escape(&proof.to_string())
        );
    }
    if step.retries > 0 {
        let _ = writeln!(
            html,
            "<p class=\"note muted\">{} settle {}</p>",
            step.retries,
            if step.retries == 1 {
                "retry"
            } else {
                "retries"
            }
        );
    }
    if step.attempts > 0 {
        let _ = writeln!(
            html,
            "<p class=\"note muted\">{} LLM {}</p>",
            step.attempts,
            if step.attempts == 1 {
                "attempt"
            } else {
                "attempts"
            }
        );
    }
    for line in &step.logs {
        let _ = writeln!(
            html,
            "<p class=\"note muted\">console: {}</p>",
            escape(line)
        );
    }
}

/// The heal of a step: why, and the diff of the cached code.
fn heal_html(html: &mut String, heal: &Heal) {
    let _ = writeln!(
        html,
        "<div class=\"heal\"><p class=\"note\"><span class=\"badge healed\">healed</span> {}</p>",
        escape(&heal.explanation)
    );
    let _ = writeln!(
        html,
        "<pre class=\"diff\">{}</pre></div>",
        diff_html(&heal_diff(&heal.old_code, &heal.new_code))
    );
}

/// `text`, escaped, with each line of a diff in it in a span whose class says what it is
/// (`add`, `del`, `ctx`); the other lines are plain text.
fn diff_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for (kind, line) in diff_lines(text) {
        let class = match kind {
            DiffLine::Text => {
                let _ = writeln!(out, "{}", escape(line));
                continue;
            }
            DiffLine::Added => "add",
            DiffLine::Removed => "del",
            DiffLine::Header | DiffLine::Context => "ctx",
        };
        let _ = writeln!(out, "<span class=\"{class}\">{}</span>", escape(line));
    }
    // The text's own last line has no newline: the `pre` would show an empty line.
    if !text.ends_with('\n') && out.ends_with('\n') {
        out.pop();
    }
    out
}

fn failure_html(html: &mut String, id: &TestId, steps: &[StepRecord], failure: &TestFailure) {
    let _ = writeln!(
        html,
        "<section class=\"failure\">\n<h3>{} <span class=\"where\">at step {}, {}:{}</span></h3>\n\
         <pre class=\"message diff\">{}</pre>",
        escape(failure_label(failure)),
        failure.step_index,
        escape(&id.scenario),
        failure.line,
        diff_html(&failure_text(id, failure)),
    );
    let step_verdict = steps
        .iter()
        .find(|s| s.index == failure.step_index)
        .and_then(|s| s.verdict.as_ref());
    if let Some(verdict) = failure_verdict(failure).or(step_verdict) {
        let _ = writeln!(
            html,
            "<dl class=\"verdict\"><dt>verdict</dt><dd>{}</dd><dt>decided</dt><dd>{}</dd>\
             <dt>why</dt><dd>{}</dd><dt>recommendation</dt><dd>{}</dd></dl>",
            escape(verdict.category.as_str()),
            escape(&verdict.source.describe(verdict.category)),
            escape(&verdict.explanation),
            escape(&verdict.recommendation)
        );
    }
    if let Some(waited) = &failure.timed_out {
        let _ = writeln!(
            html,
            "<p class=\"note\">timed out: {}</p>",
            escape(&timed_out_text(waited))
        );
    }
    // The step's own code is shown with the step; a block it does not show gets its label.
    let step_code = steps
        .iter()
        .find(|s| s.index == failure.step_index)
        .and_then(|s| s.code.as_deref());
    for (label, code) in code_blocks(failure) {
        if step_code != Some(code) {
            let _ = writeln!(
                html,
                "<p class=\"code-label\">{label}</p><pre><code>{}</code></pre>",
                escape(code)
            );
        }
    }
    if let FailureCause::Step(step) = &failure.cause
        && let Some(line) = step.code_line
    {
        let _ = writeln!(
            html,
            "<p class=\"note muted\">failed at line {line} of the step code</p>"
        );
    }
    // The page the step found is the work of the code written before it in this run.
    for written in &failure.written_before {
        let _ = writeln!(
            html,
            "<p class=\"code-label\">code of step {} &quot;{}&quot;, written in this run</p>\
             <pre><code>{}</code></pre>",
            written.step_index,
            escape(&written.step),
            escape(&written.code)
        );
    }
    if let Some(png) = &failure.screenshot {
        let alt = format!("the page when step {} failed", failure.step_index);
        let _ = writeln!(
            html,
            "<figure><img class=\"screenshot\" alt=\"{alt}\" \
             onload=\"this.dataset.loaded = this.naturalWidth > 0 ? 'yes' : 'no'\" \
             onerror=\"this.dataset.loaded = 'error'\" \
             src=\"data:image/png;base64,{}\"><figcaption>{}</figcaption></figure>",
            base64::engine::general_purpose::STANDARD.encode(png),
            escape_attr(&alt),
        );
    }
    if let Some(images) = failure.visual() {
        visual_diff(html, images);
    }
    html.push_str("</section>\n");
}

/// The largest image of a screenshot mismatch the report embeds.
const MAX_VISUAL_BYTES: u64 = 32 * crate::regular_file::MIB;

/// The expected, actual and diff images of a screenshot mismatch side by side, each with its
/// file's path, and the actual laid over the expected with a slider between the two.
fn visual_diff(html: &mut String, images: &VisualDiff) {
    let embed = |path: &std::path::Path| {
        crate::regular_file::read_regular(path, MAX_VISUAL_BYTES, "screenshot images")
            .ok()
            .map(|png| base64::engine::general_purpose::STANDARD.encode(png))
    };
    let shown = [
        ("expected", Some(images.expected.as_path())),
        ("actual", images.actual.as_deref()),
        ("diff", images.diff.as_deref()),
    ];
    html.push_str("<div class=\"visual-diff\">");
    for (label, path) in shown {
        let Some(path) = path else { continue };
        let Some(data) = embed(path) else { continue };
        let _ = write!(
            html,
            "<figure class=\"visual-{label}\"><img alt=\"{label}\" \
             src=\"data:image/png;base64,{data}\"><figcaption>{label}: {}</figcaption></figure>",
            escape(&path.display().to_string()),
        );
    }
    html.push_str("</div>\n");
    if let (Some(expected), Some(actual)) = (
        embed(&images.expected),
        images.actual.as_deref().and_then(embed),
    ) {
        let _ = writeln!(
            html,
            "<div class=\"visual-slider\"><label>expected \
             <input type=\"range\" min=\"0\" max=\"100\" value=\"50\" \
             oninput=\"this.closest('.visual-slider').querySelector('.visual-over').style.opacity = this.value / 100\"> \
             actual</label><div style=\"position: relative\">\
             <img alt=\"expected\" src=\"data:image/png;base64,{expected}\">\
             <img class=\"visual-over\" alt=\"actual\" style=\"position: absolute; left: 0; top: 0; opacity: 0.5\" \
             src=\"data:image/png;base64,{actual}\"></div></div>"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing::{self, redact};
    use crate::runner::{
        EventKind, Healed, RunEvent, StepPassed, TestKind, TestOutcome, TraceWritten, Warning,
    };

    /// Where the tests' reports are written.
    const REPORT_DIR: &str = "/work/proj/prettyplay-report";

    fn record(events: &[RunEvent]) -> RunRecord {
        let mut record = RunRecord::default();
        for event in events {
            record.observe(event);
        }
        record
    }

    /// The page between `<body>` and the script (the CSS and JS are files of their own).
    fn body(html: &str) -> &str {
        let start = html.find("<body>").unwrap();
        let end = html.find("<script>").unwrap();
        &html[start..end]
    }

    /// The demo events, with a trace of the failed test written inside the report's directory.
    fn events_with_a_trace() -> Vec<RunEvent> {
        let mut events = testing::events();
        let at = events
            .iter()
            .rposition(|e| matches!(e.kind, EventKind::Test(_, TestKind::Finished(_))))
            .unwrap();
        let test = events[at].test().unwrap().clone();
        let trace = RunEvent::of_test(
            test,
            TraceWritten {
                path: format!("{REPORT_DIR}/traces/scenarios_login.steps-log_in.zip").into(),
            },
        );
        events.insert(at, trace);
        events
    }

    #[test]
    fn a_failure_shows_the_timeout_it_ran_out_and_the_code_written_before_it() {
        let test = testing::id("a.steps", "slow", 1);
        let events = [
            RunEvent::of_test(test.clone(), TestKind::Started),
            testing::finished(
                &test,
                TestOutcome::Failed(Box::new(testing::timed_out_failure())),
                0,
            ),
        ];
        let html = render(&record(&events), Path::new(REPORT_DIR));
        assert!(
            html.contains(
                "<p class=\"note\">timed out: the `expect` call waited its whole 5 s timeout, \
                 which is [browser] timeout (in prettyplay.toml;"
            ),
            "{html}"
        );
        assert!(
            html.contains(
                "<p class=\"code-label\">code of step 1 &quot;open the app&quot;, written in \
                 this run</p><pre><code>async function step(page) {\n  await \
                 page.goto('/other');\n}</code></pre>"
            ),
            "{html}"
        );
        let plain = render(
            &record(&[
                RunEvent::of_test(test.clone(), TestKind::Started),
                testing::finished(
                    &test,
                    TestOutcome::Failed(Box::new(testing::check_failure())),
                    0,
                ),
            ]),
            Path::new(REPORT_DIR),
        );
        assert!(!plain.contains("timed out:"), "{plain}");
        assert!(!plain.contains("written in this run"), "{plain}");
    }

    #[test]
    fn html_report_shows_summary_tests_steps_badges_verdict_screenshot_and_heal() {
        let html = render(&record(&events_with_a_trace()), Path::new(REPORT_DIR));
        insta::assert_snapshot!(redact(body(&html)));
    }

    #[test]
    fn a_trace_inside_the_report_is_a_relative_link_and_one_outside_is_its_path() {
        let html = render(&record(&events_with_a_trace()), Path::new(REPORT_DIR));
        assert!(
            html.contains(
                "trace: <a href=\"traces/scenarios_login.steps-log_in.zip\" download>\
                 traces/scenarios_login.steps-log_in.zip</a>"
            ),
            "{html}"
        );
        assert!(
            html.contains(
                "<code>prettyplay show-trace traces/scenarios_login.steps-log_in.zip</code> \
                 in the report's directory"
            ),
            "{html}"
        );

        // The same run, its report written elsewhere.
        let html = render(
            &record(&events_with_a_trace()),
            Path::new("/work/proj/other"),
        );
        let trace = format!("{REPORT_DIR}/traces/scenarios_login.steps-log_in.zip");
        assert!(!html.contains("<a href"), "{html}");
        assert!(
            html.contains(&format!(
                "trace: {trace} <span class=\"muted\">— open it with \
                 <code>prettyplay show-trace {trace}</code></span>"
            )),
            "{html}"
        );
    }

    #[test]
    fn the_summary_says_when_the_run_started_when_its_events_say() {
        let page =
            |events: &[RunEvent]| body(&render(&record(events), Path::new(REPORT_DIR))).to_owned();
        let stamped = page(&testing::stamped(testing::events()));
        assert!(
            stamped.contains(
                "<span class=\"time\">started <time datetime=\"2026-01-02T03:04:05Z\">\
                 2026-01-02 03:04:05 UTC</time></span>"
            ),
            "{stamped}"
        );
        assert!(!page(&testing::events()).contains("started"));
    }

    #[test]
    fn a_test_ctrl_c_stopped_shows_as_interrupted_not_failed() {
        let test = testing::id("a.steps", "stopped", 1);
        let mut stats = crate::runner::RunStats {
            interrupted_tests: 1,
            stopped: Some(crate::runner::StopReason::Interrupted),
            ..Default::default()
        };
        stats.not_run = 2;
        let events = [
            RunEvent::of_test(test.clone(), crate::runner::TestKind::Started),
            testing::finished(&test, testing::interrupted(), 0),
            RunEvent::of_run(crate::runner::RunFinished { stats }),
        ];
        let html = render(&record(&events), Path::new(REPORT_DIR));
        let page = body(&html);
        assert!(page.contains("INTERRUPTED"), "{page}");
        assert!(page.contains("1 interrupted"), "{page}");
        assert!(page.contains("0 failed"), "{page}");
        assert!(!page.contains(">FAIL<"), "{page}");
    }

    #[test]
    fn html_report_is_self_contained() {
        let html = render(&record(&testing::events()), Path::new(REPORT_DIR));
        for needle in [
            "http://", "https://", "<link", "@import", " src=\"/", "//cdn",
        ] {
            assert!(!html.contains(needle), "the report contains {needle:?}");
        }
        assert_eq!(html.matches("<script").count(), 1);
        assert_eq!(html.matches("<style").count(), 1);
        assert!(html.contains("src=\"data:image/png;base64,iVBORw0KGgo"));
    }

    #[test]
    fn markup_in_names_steps_code_and_messages_is_harmless() {
        let evil = "<script>window.pwned = 1</script><img src=x onerror=alert(1)>\"'&";
        let test = TestId {
            scenario: format!("scenarios/{evil}.steps"),
            name: evil.into(),
            line: 1,
            project: None,
        };
        let mut failure = testing::check_failure();
        failure.step = evil.into();
        failure.code = Some(format!(
            "async function step(page) {{ /* </code></pre>{evil} */ }}"
        ));
        if let FailureCause::Step(step) = &mut failure.cause {
            step.message = evil.into();
        }
        let events = [
            RunEvent::of_test(test.clone(), crate::runner::TestKind::Started),
            RunEvent::of_step(
                test.clone(),
                1,
                StepPassed {
                    proof: None,
                    sentence: evil.into(),
                    line: 2,
                    source: StepSource::Healed,
                    by: Some(crate::cache::Author::Llm),
                    duration: std::time::Duration::ZERO,
                    code: evil.into(),
                },
            ),
            RunEvent::of_step(
                test.clone(),
                1,
                Healed {
                    sentence: evil.into(),
                    explanation: evil.into(),
                    by: crate::cache::Author::Builtin,
                    offline: true,
                    old_code: evil.into(),
                    new_code: format!("{evil}\n{evil}"),
                },
            ),
            RunEvent::of_test(
                test.clone(),
                Warning {
                    message: evil.into(),
                },
            ),
            testing::finished(&test, TestOutcome::Failed(Box::new(failure)), 0),
        ];
        let html = render(&record(&events), Path::new(REPORT_DIR));
        assert_eq!(html.matches("<script").count(), 1, "{html}");
        assert!(!html.contains("<img src=x"), "{html}");
        assert!(!html.contains("</code></pre>&lt;"), "{html}");
        assert!(html.contains(
            "&lt;script&gt;window.pwned = 1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;\"'&amp;"
        ));
    }

    #[test]
    fn a_flaky_test_has_its_own_status_and_shows_the_failed_attempt() {
        let html = render(&record(&testing::retried_events()), Path::new(REPORT_DIR));
        assert!(html.contains("<span class=\"count flaky\">1 flaky</span>"));
        let flaky = body(&html)
            .split("<details class=\"test ")
            .find(|t| t.contains("<span class=\"name\">flaky</span>"))
            .unwrap();
        assert!(flaky.starts_with("flaky\""), "{flaky}");
        assert!(
            flaky.contains("data-status=\"flaky cached\" open"),
            "{flaky}"
        );
        assert!(flaky.contains(">FLAKY</span>"), "{flaky}");
        assert!(flaky.contains("attempt 1 failed"), "{flaky}");
        assert!(flaky.contains("<section class=\"failure\">"), "{flaky}");
        assert!(flaky.contains("attempt 2 passed"), "{flaky}");
        let broken = body(&html)
            .split("<details class=\"test ")
            .find(|t| t.contains("<span class=\"name\">broken</span>"))
            .unwrap();
        assert_eq!(broken.matches("<section class=\"failure\">").count(), 3);
    }

    #[test]
    fn a_test_of_a_browser_project_carries_it_as_a_label_the_filter_can_match() {
        let html = render(
            &record(&testing::two_browser_events()),
            Path::new(REPORT_DIR),
        );
        let summaries: Vec<&str> = html
            .lines()
            .filter(|l| l.starts_with("<summary><span class=\"status"))
            .collect();
        assert_eq!(summaries.len(), 6, "{html}");
        assert!(
            summaries[0].starts_with(
                "<summary><span class=\"status failed\">FAIL</span> <span class=\"project\">\
                 chromium</span> <span class=\"scenario\">scenarios/login.steps</span> › \
                 <span class=\"name\">log in</span>"
            ),
            "{}",
            summaries[0]
        );
        assert!(
            summaries[5].contains(
                "<span class=\"project\">firefox</span> <span class=\"scenario\">\
                 scenarios/todo.steps</span> › <span class=\"name\">rename a todo</span>"
            ),
            "{}",
            summaries[5]
        );
        assert!(
            html.contains(
                "<details class=\"test failed\" id=\"test-4\" data-status=\"failed cached\" \
                 data-project=\"firefox\" open>"
            ),
            "{html}"
        );
        assert!(
            html.contains("placeholder=\"text, or a status: passed failed flaky healed generated cached, or p:BROWSER\""),
            "{html}"
        );
        assert!(JS.contains("data-project"));
    }

    #[test]
    fn a_vetoed_heal_shows_the_kept_code_and_the_refused_candidate_labelled() {
        let test = testing::id("scenarios/todo.steps", "add a todo", 2);
        let events = [
            RunEvent::of_test(test.clone(), crate::runner::TestKind::Started),
            testing::finished(
                &test,
                TestOutcome::Failed(Box::new(testing::vetoed_failure())),
                0,
            ),
        ];
        let html = render(&record(&events), Path::new(REPORT_DIR));
        let kept = format!(
            "<details class=\"code\" open><summary>cached code (kept)</summary><pre><code>{}</code>",
            escape(testing::KEPT)
        );
        let refused = format!(
            "<p class=\"code-label\">refused candidate</p><pre><code>{}</code></pre>",
            escape(testing::REFUSED)
        );
        assert!(html.contains(&kept), "{html}");
        assert!(html.contains(&refused), "{html}");
        assert_eq!(html.matches(&escape(testing::KEPT)).count(), 1, "{html}");
        // The message's diff has its lines marked for colour.
        for line in [
            "<span class=\"ctx\">--- cached</span>",
            "<span class=\"del\">-  await expect(page.getByRole(&#39;listitem&#39;)).toHaveCount(1);</span>",
            "<span class=\"add\">+  await expect(page.getByRole(&#39;listitem&#39;)).toHaveCount(2);</span>",
        ] {
            let line = line.replace("&#39;", &escape("'"));
            assert!(html.contains(&line), "no {line} in {html}");
        }
    }

    #[test]
    fn long_lines_wrap_instead_of_running_off_the_page() {
        assert!(CSS.contains("white-space: pre-wrap; overflow-wrap: anywhere;"));
        assert!(!CSS.contains("white-space: pre;"));
    }

    #[test]
    fn a_run_without_projects_has_no_project_labels_or_p_filter() {
        let html = render(&record(&testing::events()), Path::new(REPORT_DIR));
        let body = body(&html);
        assert!(!body.contains("project"), "{body}");
        assert!(!body.contains("p:BROWSER"), "{body}");
    }
}
