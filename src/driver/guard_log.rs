//! What the origin guard did in one test, kept for the step that caused it and the test's
//! report: the failures of the requests that fail their step, the log lines of every request
//! loaded, blocked or failed (each URL once, at most [`MAX_LISTED`]), and a tally by origin.
//!
//! Main type: [`GuardLog`].

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::driver::traffic_rule::Outcome;

/// The most distinct request URLs that one test lists in its log. Further ones are only
/// counted.
pub(crate) const MAX_LISTED: usize = 50;

/// One origin outside `[browser] allowed_origins` that a test's pages or step code reached
/// for, and what became of its requests (one entry per outcome).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OriginSeen {
    /// `http://host:port`, `file:`, or `host:port` for a connection that carried no URL.
    pub origin: String,
    pub outcome: Outcome,
    /// The kinds of its requests (`font`, `ping`, `fetch`, ...), in order.
    pub kinds: Vec<String>,
    pub requests: u32,
    /// The first URL of them.
    pub url: String,
}

/// Who could have caused a request that failed, as far as the guard can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Culprit {
    /// Only the code that runs now: its own call, or a page's request while no code before it
    /// ran JavaScript of its own in a page. When that code fails, the block is its failure.
    CurrentCode,
    /// Possibly code that ran before: a timer or a listener that earlier step code left in a
    /// page fires whenever it is due, so a later candidate's failure never forgives it.
    EarlierCode,
}

/// The failure message of a request that failed, and who could have caused it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Violation {
    message: String,
    culprit: Culprit,
}

/// See the module documentation.
#[derive(Default)]
pub(crate) struct GuardLog {
    /// The failure messages of everything that failed since the last take.
    step: Vec<String>,
    /// Log lines not yet taken.
    lines: Vec<String>,
    /// Every (outcome, URL) listed so far in this test.
    listed: HashSet<(Outcome, String)>,
    /// URLs past [`MAX_LISTED`], not listed, since the last take.
    unlisted: usize,
    /// How many of `violations` came before the code that runs now started: only the later
    /// ones can be forgiven.
    mark: usize,
    /// Everything that failed in the test, and every top-level navigation that reached another
    /// origin. Nothing takes them, because a test that had one does not pass, whatever its step
    /// code caught.
    violations: Vec<Violation>,
    /// The step (1-based, background steps first) whose code runs now: from its first
    /// execution to the step's end. `None` between steps and at the test's end.
    running: Option<usize>,
    /// The last step whose code ran.
    last_ran: usize,
    /// By (origin, outcome): the kinds, the count and the first URL.
    tally: BTreeMap<(String, Outcome), (BTreeSet<String>, u32, String)>,
}

impl GuardLog {
    /// Records `message` as the failure of the current step and of the test, caused by
    /// `culprit`. A message recorded again keeps the culprit that cannot be forgiven.
    pub(crate) fn fail(&mut self, message: String, culprit: Culprit) {
        // A failure that came while no step's code ran is no step's own: it says which steps
        // ran before it, because what their code left in a page may have caused it.
        let message = match (self.running, self.last_ran) {
            (None, 1) => format!(
                "{message}; it came when no step's code was running, after the code of step 1 \
                 had run"
            ),
            (None, last) if last > 1 => format!(
                "{message}; it came when no step's code was running, after the code of steps \
                 1–{last} had run"
            ),
            _ => message,
        };
        match self.violations.iter_mut().find(|v| v.message == message) {
            Some(known) if culprit == Culprit::EarlierCode => known.culprit = culprit,
            Some(_) => {}
            None => self.violations.push(Violation {
                message: message.clone(),
                culprit,
            }),
        }
        self.step.push(message);
    }

    /// Lists `what` (a URL, or `host:port`) of `kind` with its `outcome` in the test's log,
    /// once, within [`MAX_LISTED`], and counts it for its origin.
    pub(crate) fn list(&mut self, what: &str, kind: &str, outcome: Outcome) {
        let origin = origin_of(what);
        let entry = self
            .tally
            .entry((origin, outcome))
            .or_insert_with(|| (BTreeSet::new(), 0, what.to_owned()));
        entry.0.insert(kind.to_owned());
        entry.1 += 1;
        let key = (outcome, what.to_owned());
        if self.listed.contains(&key) {
            return;
        }
        if self.listed.len() >= MAX_LISTED {
            self.unlisted += 1;
            return;
        }
        self.listed.insert(key);
        self.lines.push(match outcome {
            Outcome::Failed => format!("blocked by [browser] allowed_origins: {kind} {what}"),
            Outcome::Blocked => {
                format!("[browser] allowed_origins: blocked the app's {kind} {what}")
            }
            Outcome::Loaded => format!("[browser] allowed_origins: loaded the app's {kind} {what}"),
        });
    }

    /// Notes that the code of `step` starts running, or with `None` that the step ended.
    pub(crate) fn code_runs(&mut self, step: Option<usize>) {
        if let Some(step) = step {
            self.last_ran = self.last_ran.max(step);
        }
        self.running = step;
    }

    /// Takes the failure message of the first thing that failed since the last call.
    pub(crate) fn take_failure(&mut self) -> Option<String> {
        self.step.drain(..).next()
    }

    pub(crate) fn first_violation(&self) -> Option<String> {
        self.violations.first().map(|v| v.message.clone())
    }

    /// Notes that step code starts running: what failed before belongs to earlier code.
    pub(crate) fn mark(&mut self) {
        self.mark = self.violations.len();
    }

    /// Forgets what failed since the last [`GuardLog::mark`] that only the code running now
    /// could have caused: a failed candidate's blocks were its own failure. What earlier code
    /// may have left behind stays, so its test still fails. The log keeps what it listed.
    pub(crate) fn forgive(&mut self) {
        self.step.clear();
        let mark = self.mark.min(self.violations.len());
        let mut since = self.violations.split_off(mark);
        since.retain(|v| v.culprit == Culprit::EarlierCode);
        self.violations.append(&mut since);
    }

    /// Takes the log lines written since the last call, and one line that counts the URLs not
    /// listed.
    pub(crate) fn take_lines(&mut self) -> Vec<String> {
        let mut lines = std::mem::take(&mut self.lines);
        if self.unlisted > 0 {
            lines.push(format!(
                "… {} more request(s) to other origins not listed (a test lists at most \
                 {MAX_LISTED} URLs)",
                self.unlisted
            ));
            self.unlisted = 0;
        }
        lines
    }

    /// Every origin the test reached for so far, by origin and outcome.
    pub(crate) fn origins_seen(&self) -> Vec<OriginSeen> {
        self.tally
            .iter()
            .map(|((origin, outcome), (kinds, requests, url))| OriginSeen {
                origin: origin.clone(),
                outcome: *outcome,
                kinds: kinds.iter().cloned().collect(),
                requests: *requests,
                url: url.clone(),
            })
            .collect()
    }
}

/// The origin of `what`: a URL's origin (`file:` for a file), or `what` itself.
fn origin_of(what: &str) -> String {
    match url::Url::parse(what) {
        Ok(url) => {
            let origin = url.origin();
            if origin.is_tuple() {
                origin.ascii_serialization()
            } else {
                format!("{}:", url.scheme())
            }
        }
        Err(_) => what.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_url_is_listed_once_per_outcome_and_bounded() {
        let mut log = GuardLog::default();
        log.list("http://other:9/a.png", "image", Outcome::Failed);
        log.list("http://other:9/a.png", "image", Outcome::Failed);
        log.list("http://cdn:9/f.woff2", "font", Outcome::Loaded);
        log.list("http://stats:9/c", "ping", Outcome::Blocked);
        assert_eq!(
            log.take_lines(),
            [
                "blocked by [browser] allowed_origins: image http://other:9/a.png",
                "[browser] allowed_origins: loaded the app's font http://cdn:9/f.woff2",
                "[browser] allowed_origins: blocked the app's ping http://stats:9/c",
            ]
        );
        log.list("http://other:9/a.png", "image", Outcome::Failed);
        assert!(log.take_lines().is_empty());
        for i in 0..MAX_LISTED + 5 {
            log.list(&format!("http://other:9/{i}"), "fetch", Outcome::Failed);
        }
        let lines = log.take_lines();
        assert_eq!(lines.len(), MAX_LISTED - 3 + 1);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("… 8 more request(s) to other origins not listed (a test lists at most 50 URLs)")
        );
    }

    #[test]
    fn origins_are_tallied_by_outcome() {
        let mut log = GuardLog::default();
        log.list("http://cdn:9/f.woff2", "font", Outcome::Loaded);
        log.list("http://cdn:9/lib.js", "script", Outcome::Loaded);
        log.list("http://cdn:9/lib.js", "script", Outcome::Loaded);
        log.list("127.0.0.1:7", "connection", Outcome::Failed);
        log.list("file:///etc/hostname", "document", Outcome::Failed);
        let seen = log.origins_seen();
        assert_eq!(
            seen.iter()
                .map(|s| (s.origin.as_str(), s.outcome, s.requests))
                .collect::<Vec<_>>(),
            [
                ("127.0.0.1:7", Outcome::Failed, 1),
                ("file:", Outcome::Failed, 1),
                ("http://cdn:9", Outcome::Loaded, 3),
            ]
        );
        assert_eq!(seen[2].kinds, ["font", "script"]);
        assert_eq!(seen[2].url, "http://cdn:9/f.woff2");
    }

    #[test]
    fn a_later_candidate_is_forgiven_never_the_code_before_it() {
        let mut log = GuardLog::default();
        log.fail("first".into(), Culprit::CurrentCode);
        assert_eq!(log.take_failure().as_deref(), Some("first"));
        log.mark();
        log.fail("second".into(), Culprit::CurrentCode);
        log.forgive();
        assert_eq!(log.take_failure(), None);
        assert_eq!(log.first_violation().as_deref(), Some("first"));
    }

    #[test]
    fn a_failure_between_steps_says_which_steps_ran_before_it() {
        let mut log = GuardLog::default();
        log.fail("before any step".into(), Culprit::CurrentCode);
        log.code_runs(Some(1));
        log.fail("during step 1".into(), Culprit::CurrentCode);
        log.code_runs(None);
        log.fail("after step 1".into(), Culprit::EarlierCode);
        log.code_runs(Some(2));
        log.code_runs(None);
        log.fail("at the end".into(), Culprit::EarlierCode);
        assert_eq!(
            log.violations
                .iter()
                .map(|v| v.message.as_str())
                .collect::<Vec<_>>(),
            [
                "before any step",
                "during step 1",
                "after step 1; it came when no step's code was running, after the code of \
                 step 1 had run",
                "at the end; it came when no step's code was running, after the code of steps \
                 1–2 had run",
            ]
        );
    }

    #[test]
    fn what_earlier_code_may_have_caused_is_never_forgiven() {
        let mut log = GuardLog::default();
        log.mark();
        log.fail("a late timer's fetch".into(), Culprit::EarlierCode);
        log.fail("the candidate's own".into(), Culprit::CurrentCode);
        log.forgive();
        assert_eq!(log.take_failure(), None);
        assert_eq!(
            log.first_violation().as_deref(),
            Some("a late timer's fetch")
        );
        // Recorded again by code that could be earlier code's, a message is kept.
        log.mark();
        log.fail("the candidate's own".into(), Culprit::CurrentCode);
        log.fail("the candidate's own".into(), Culprit::EarlierCode);
        log.forgive();
        assert_eq!(log.violations.len(), 2);
    }
}
