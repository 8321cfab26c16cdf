//! What step code put into the test's pages, as the origin guard needs it to tell the app's own
//! requests from those step code could have caused: whether it ran JavaScript of its own in a
//! page, the hosts and values it typed, navigated to or sent, and when it last acted on a page,
//! so that a document that loaded since then is known to be the app's alone.
//!
//! Main type: [`StepReach`]. The binding tells it of every call step code makes, before the
//! call is sent ([`StepReach::call`]); the guard's request listener tells it of every
//! navigation request ([`StepReach::navigation_started`]).

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use serde_json::Value;

use crate::driver::guard_log::Culprit;
use crate::driver::traffic::Late;

/// The most text of step code's calls kept to look hosts up in. Past it every host counts as
/// named, so that a step cannot hide a host behind a flood of text.
const MAX_TEXT_BYTES: usize = 1 << 20;

/// The most values kept; past it every URL counts as carrying one.
const MAX_VALUES: usize = 10_000;

/// The fewest characters a value step code typed must have to be looked for in a URL: shorter
/// ones (a digit, "yes") are in too many URLs by chance.
pub(crate) const MIN_VALUE_CHARS: usize = 8;

/// What a call of step code can do to the test's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// It only waits, or is the binding's own bookkeeping or read (`waitForEvent`,
    /// `waitForLoadState`).
    Read,
    /// It asserts what the page shows (`expect`, a screenshot or accessibility check): it fails
    /// the step unless the page is as the test claims.
    Check,
    /// It navigates a page (`goto`, `reload`, `goBack`, `goForward`): the app's document that
    /// loads is the app's.
    Navigate,
    /// It acts as a user does (click, fill, press, a dialog's prompt text).
    Act,
    /// It runs step code's own JavaScript in the page (`evaluate`, `waitForFunction`).
    RunCode,
    /// It runs step code's own JavaScript whose script only reads the page
    /// (`script/page_reads.rs`): blamed like any code of step code's own, but it can neither
    /// send a request nor leave a timer or a listener behind.
    ReadCode,
    /// It sends an HTTP request of its own (`request.*`): nothing in a page changes.
    Request,
}

/// See the module documentation.
#[derive(Debug, Default)]
pub(crate) struct StepReach {
    /// How many times step code started acting on a page (see [`Reach::Act`]).
    acted: u64,
    /// How many executions of step code started, counting the current one.
    executions: u64,
    /// The execution during which step code first ran JavaScript of its own, if it did.
    ran_code: Option<u64>,
    /// Whether step code ran JavaScript of its own that may do more than read, in any
    /// execution of the test, a failed candidate's included: what it left in the page (a
    /// listener) stays there whoever is blamed for it.
    left_code: bool,
    /// The lowercased text of every string step code put into a page or sent.
    text: String,
    /// Set when `text` or `values` reached their limits.
    overflow: bool,
    /// `host:port` of every URL in that text.
    hosts: HashSet<String>,
    /// The lowercased strings of [`MIN_VALUE_CHARS`] or more step code typed or sent.
    values: HashSet<String>,
    /// By frame: when its latest navigation request was seen (the count of actions then) and
    /// its URL without the fragment.
    documents: HashMap<String, (u64, String)>,
    /// The frames whose latest navigation request was heard but whose frame has not told of a
    /// navigation since: the document is still on its way.
    uncommitted: HashSet<String>,
}

impl StepReach {
    /// Notes that an execution of step code starts.
    pub(crate) fn mark(&mut self) {
        self.executions += 1;
    }

    /// Forgets that the execution that just failed ran code of its own: a failed candidate is
    /// not cached, and what it set going is judged as it happens.
    pub(crate) fn forgive(&mut self) {
        if self.ran_code == Some(self.executions) {
            self.ran_code = None;
        }
    }

    /// Notes a call of step code with `params`, before it is sent.
    pub(crate) fn call(&mut self, reach: Reach, params: &Value) {
        match reach {
            Reach::Read | Reach::Check => return,
            Reach::Act => self.acted += 1,
            Reach::RunCode | Reach::ReadCode => {
                self.acted += 1;
                self.ran_code.get_or_insert(self.executions);
                self.left_code |= reach == Reach::RunCode;
            }
            Reach::Navigate | Reach::Request => {}
        }
        let mut strings = Vec::new();
        leaves(params, &mut strings);
        for string in strings {
            self.note(string, reach);
        }
    }

    /// Notes that `frame` (its protocol id) asked to navigate to `url`.
    pub(crate) fn navigation_started(&mut self, frame: &str, url: &str) {
        self.documents
            .insert(frame.to_owned(), (self.acted, without_fragment(url)));
        self.uncommitted.insert(frame.to_owned());
    }

    /// Notes that `frame` told of a navigation, a same-document one included: the document its
    /// latest navigation request asked for, if any, is the frame's now or never will be.
    pub(crate) fn frame_navigated(&mut self, frame: &str) {
        self.uncommitted.remove(frame);
    }

    /// Whether `frame`'s latest navigation request was heard and the frame has not told of a
    /// navigation since.
    pub(crate) fn document_on_its_way(&self, frame: &str) -> bool {
        self.uncommitted.contains(frame)
    }

    /// Whether the document `frame` shows now, at `url`, is the one its latest navigation
    /// asked for, and that navigation started after step code last acted: the app's markup
    /// and scripts ask for what it loads.
    pub(crate) fn app_document_loading(&self, frame: &str, url: &str) -> bool {
        self.documents
            .get(frame)
            .is_some_and(|(acted, asked)| *acted == self.acted && *asked == without_fragment(url))
    }

    /// Whether the guard heard of the navigation request that asked for the document `frame`
    /// shows now, at `url`.
    pub(crate) fn document_heard(&self, frame: &str, url: &str) -> bool {
        self.documents
            .get(frame)
            .is_some_and(|(_, asked)| *asked == without_fragment(url))
    }

    pub(crate) fn ran_code(&self) -> bool {
        self.ran_code.is_some()
    }

    /// Whether step code ran JavaScript of its own that may do more than read in the test,
    /// a failed candidate's too (see [`StepReach::forgive`]).
    pub(crate) fn left_code(&self) -> bool {
        self.left_code
    }

    /// Whether a call of `reach`, noted already, may set going requests that fail the test
    /// and that the pages hand to the network only a while after the call returned.
    ///
    /// Step code's own JavaScript may, unless its script only reads: a timer, an inserted
    /// script, a listener. A user's act may: the app may answer it by navigating the page,
    /// which fails the test when it leaves the allowed origins, and only a click's or a key
    /// press's own navigation is waited for by Playwright before the act returns (a choice, a
    /// fill or a check is not, nor a navigation the app starts after an await). What a page
    /// sends after a navigation is the app's own, which fails the test only when it carries a
    /// secret of the run (`secrets_in_play`: the run has one, and step code may have typed
    /// it), names a host step code put into the page that is `outside` the allowed origins,
    /// or is answered by step code's listeners once step code ran JavaScript of its own.
    ///
    /// It returns the kind of such a call, or `None` when its consequences come at once.
    pub(crate) fn may_answer_late(
        &self,
        reach: Reach,
        secrets_in_play: bool,
        outside: impl Fn(&str) -> bool,
    ) -> Option<Late> {
        match reach {
            Reach::RunCode => Some(Late::Code),
            Reach::Act => Some(Late::Act),
            Reach::Navigate => {
                (self.ran_code.is_some() || secrets_in_play || self.named_outside(outside))
                    .then_some(Late::Act)
            }
            Reach::ReadCode | Reach::Read | Reach::Check | Reach::Request => None,
        }
    }

    /// Whether step code typed, navigated to or sent a host that is `outside` the allowed
    /// origins (or so much text that every host counts as named).
    pub(crate) fn named_outside(&self, outside: impl Fn(&str) -> bool) -> bool {
        self.overflow || self.hosts.iter().any(|host| outside(host))
    }

    /// Who could have caused a request that fails now: code before the current execution when
    /// one of them ran JavaScript of its own in a page (what it left there may fire at any
    /// time), otherwise only the current one.
    pub(crate) fn culprit(&self) -> Culprit {
        match self.ran_code {
            Some(execution) if execution < self.executions => Culprit::EarlierCode,
            _ => Culprit::CurrentCode,
        }
    }

    /// Whether step code named the host and port of `url` in what it typed or sent.
    pub(crate) fn names_host_of(&self, url: &url::Url) -> bool {
        if self.overflow {
            return true;
        }
        let Some(host) = url.host_str() else {
            return false;
        };
        let host = host.to_ascii_lowercase();
        let Some(port) = url.port_or_known_default() else {
            return false;
        };
        if self.hosts.contains(&format!("{host}:{port}")) {
            return true;
        }
        // A host written without a scheme (`cdn.example.com` typed into a field) names it too,
        // with the port written unless it is the scheme's own.
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        match url.port() {
            None => mentions(&self.text, bare),
            Some(port) => mentions(&self.text, &format!("{bare}:{port}")),
        }
    }

    /// Whether `url`, decoded, holds a value step code typed or sent.
    pub(crate) fn carries_value(&self, url: &url::Url) -> bool {
        if self.overflow {
            return true;
        }
        let decoded = decoded(url.as_str());
        self.values
            .iter()
            .any(|value| decoded.contains(value.as_str()))
    }

    fn note(&mut self, string: &str, reach: Reach) {
        let lower = string.to_lowercase();
        for host in hosts_in(&lower) {
            self.hosts.insert(host);
        }
        if self.text.len() + lower.len() > MAX_TEXT_BYTES {
            self.overflow = true;
        } else {
            self.text.push_str(&lower);
            self.text.push('\n');
        }
        let mut values = vec![lower.clone()];
        // A URL step code navigated to or requested is the app's up to its path: only the
        // parts it chose beyond the origin are values (a path segment, a query value).
        if matches!(reach, Reach::Navigate | Reach::Request)
            && let Ok(url) = url::Url::parse(&lower)
        {
            values.clear();
            values.extend(url.path_segments().into_iter().flatten().map(decoded));
            values.extend(url.query_pairs().map(|(_, v)| v.into_owned()));
            values.extend(url.fragment().map(decoded));
        }
        for value in values {
            if value.chars().count() < MIN_VALUE_CHARS {
                continue;
            }
            if self.values.len() >= MAX_VALUES {
                self.overflow = true;
                return;
            }
            self.values.insert(value);
        }
    }
}

/// Whether `text` holds `host` as a whole host: not as the end of a longer name
/// (`fonts.example.com` does not mention `example.com`) nor the start of one.
fn mentions(text: &str, host: &str) -> bool {
    let part_of_name = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    text.match_indices(host).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + host.len()..].chars().next();
        !before.is_some_and(part_of_name) && !after.is_some_and(|c| part_of_name(c) && c != '.')
    })
}

/// Every string in `value`, keys included.
fn leaves<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) => items.iter().for_each(|item| leaves(item, out)),
        Value::Object(map) => {
            for (key, item) in map {
                out.push(key);
                leaves(item, out);
            }
        }
        _ => {}
    }
}

/// `url` without its fragment.
fn without_fragment(url: &str) -> String {
    url.split_once('#')
        .map_or(url, |(before, _)| before)
        .to_owned()
}

/// `text` percent-decoded (a `+` read as a space too), lowercased.
fn decoded(text: &str) -> String {
    let spaced = text.replace('+', " ");
    url::form_urlencoded::parse(format!("x={spaced}").as_bytes())
        .next()
        .map_or_else(|| text.to_lowercase(), |(_, v)| v.to_lowercase())
}

/// The `host:port` of every URL in `text`, as the browser would parse it: with a scheme
/// (`https://cdn.example.com/x`, or `https:/cdn.example.com` with the slashes the parser
/// forgives left out), scheme-relative (`//cdn.example.com`), or a bare host with a dot or a
/// port (`cdn.example.com`, `127.0.0.1:4001`), read as `http:`. A path relative to the page
/// (`/login.html`, `./app.js`) names no host: the browser resolves it to the page's own origin.
/// The URL parser drops tabs and line breaks anywhere in a URL, and the text is split into words
/// at them, so the text without them is read as well: `/<tab>/evil.example` names the host the
/// browser reaches.
fn hosts_in(text: &str) -> Vec<String> {
    let mut hosts = hosts_in_words(text);
    if text.contains(['\t', '\n', '\r']) {
        let unbroken: String = text
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect();
        hosts.extend(hosts_in_words(&unbroken));
    }
    hosts
}

/// [`hosts_in`] of `text` split into words as written.
fn hosts_in_words(text: &str) -> Vec<String> {
    let mut hosts = Vec::new();
    let separators = |c: char| c.is_whitespace() || "\"'`<>(){},;|^".contains(c);
    for word in text.split(separators) {
        // The URL parser trims control characters and spaces from both ends.
        let token = word.trim_matches(|c: char| c <= ' ');
        if token.is_empty() {
            continue;
        }
        let mut candidates: Vec<String> = Vec::new();
        for (at, _) in token.match_indices("://") {
            let start = token[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || "+.-".contains(c)))
                .map_or(0, |i| i + 1);
            candidates.push(token[start..].to_owned());
        }
        if let Some(rest) = token.strip_prefix("//") {
            candidates.push(format!("http://{rest}"));
        } else if !token.contains("://")
            && (token.contains('.') || token.contains(':'))
            && !relative_path(token)
        {
            candidates.push(format!("http://{token}"));
            // `https:/cdn.example.com` and `https:cdn.example.com` are URLs of that host.
            candidates.push(token.to_owned());
        }
        for candidate in candidates {
            if let Ok(url) = url::Url::parse(&candidate)
                && let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default())
            {
                hosts.push(format!("{}:{port}", host.to_ascii_lowercase()));
            }
        }
    }
    hosts
}

/// Whether `token` is a path the browser resolves against the page's own origin, as a URL in
/// a page or a navigation is. Written as a path (a leading `/`, `./` or `../`), it is resolved
/// against two origins of different hosts, and it is a path when each keeps its own host: the
/// URL parser's own reading decides, so `/\evil.example`, which the browser reads as
/// scheme-relative, is not a path.
fn relative_path(token: &str) -> bool {
    if !(token.starts_with('/') || token.starts_with("./") || token.starts_with("../")) {
        return false;
    }
    PATH_BASES.iter().all(|base| {
        base.join(token)
            .is_ok_and(|joined| joined.host_str() == base.host_str())
    })
}

/// The two origins of different hosts [`relative_path`] resolves a word against, parsed once:
/// every string of every call step code makes is read for hosts.
static PATH_BASES: LazyLock<[url::Url; 2]> = LazyLock::new(|| {
    // Both are constant URLs the parser accepts, so neither `expect` can fail.
    [
        url::Url::parse("http://a.invalid/").expect("a constant URL"),
        url::Url::parse("http://b.invalid/").expect("a constant URL"),
    ]
});

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn url(text: &str) -> url::Url {
        url::Url::parse(text).expect("a URL")
    }

    #[test]
    fn hosts_are_read_as_the_browser_parses_them() {
        assert_eq!(
            hosts_in("see https://cdn.example.com/x?y and //img.example.org/a"),
            ["cdn.example.com:443", "img.example.org:80"]
        );
        // Percent-encoding, a number for an IPv4 address, a trailing dot and capitals are
        // spelled as the URL parser spells them.
        assert_eq!(hosts_in("http://ev%69l.example/"), ["evil.example:80"]);
        assert_eq!(hosts_in("http://2130706433:4001/"), ["127.0.0.1:4001"]);
        assert_eq!(hosts_in("127.0.0.1:4001"), ["127.0.0.1:4001"]);
        assert_eq!(hosts_in("u=http://evil.example/?d=1"), ["evil.example:80"]);
        assert!(hosts_in("buy milk").is_empty());
    }

    #[test]
    fn a_path_relative_to_the_page_names_no_host_and_a_scheme_relative_one_does() {
        // Step code's `page.goto('/login.html')` or `request.get('/api/todos.json')`: the
        // app's own origin, not a host `login.html`.
        for path in [
            "/login.html",
            "./app.js",
            "../styles/site.css",
            "/api/todos.json?x=1",
        ] {
            assert!(hosts_in(path).is_empty(), "{path}");
        }
        // The URL parser reads a backslash as a slash in an http URL, drops tabs and line
        // breaks anywhere, and trims control characters: these leave the page's origin.
        for scheme_relative in [
            "//evil.example/x",
            "/\\evil.example/x",
            "/\\\\evil.example/x",
            "/\t/evil.example/x",
            "/\n/evil.example/x",
            "\u{1}//evil.example/x",
            "/\t/ev%69l.example/a.png",
        ] {
            assert!(
                hosts_in(scheme_relative).contains(&"evil.example:80".to_owned()),
                "{scheme_relative:?}"
            );
        }
        assert!(hosts_in("/\n/2130706433:7/x").contains(&"127.0.0.1:7".to_owned()));
        assert!(hosts_in("http:/\r\n/evil.example/x").contains(&"evil.example:80".to_owned()));
        // A scheme with the slashes the parser forgives left out.
        assert!(hosts_in("https:/ev%69l.example/x").contains(&"evil.example:443".to_owned()));
        assert!(hosts_in("https:evil.example").contains(&"evil.example:443".to_owned()));
        // A bare host typed into a field still names it.
        assert_eq!(hosts_in("evil.example/x.js"), ["evil.example:80"]);
    }

    #[test]
    fn a_host_step_code_typed_is_named_and_the_apps_own_are_not() {
        let mut reach = StepReach::default();
        reach.call(Reach::Navigate, &json!({ "url": "http://127.0.0.1:4000/" }));
        reach.call(
            Reach::Act,
            &json!({ "selector": "#url", "value": "http://127.0.0.1:4002/pic.png" }),
        );
        assert!(reach.names_host_of(&url("http://127.0.0.1:4002/other")));
        assert!(!reach.names_host_of(&url("http://127.0.0.1:4001/font.woff2")));
        // Reads name nothing: a check may mention any host.
        reach.call(
            Reach::Check,
            &json!({ "expected": "https://fonts.example.com" }),
        );
        assert!(!reach.names_host_of(&url("https://fonts.example.com/css")));
        reach.call(Reach::Act, &json!({ "value": "fonts.example.com" }));
        assert!(reach.names_host_of(&url("https://fonts.example.com/css")));
        assert!(!reach.names_host_of(&url("https://example.com/")));
        assert!(!reach.names_host_of(&url("https://example.co/")));
    }

    #[test]
    fn values_are_what_step_code_typed_and_the_parts_of_urls_it_chose() {
        let mut reach = StepReach::default();
        reach.call(
            Reach::Navigate,
            &json!({ "url": "http://127.0.0.1:4000/search?q=the%20long%20query" }),
        );
        reach.call(Reach::Act, &json!({ "value": "Hunter22-typed" }));
        assert!(reach.carries_value(&url("http://cdn.example/p?u=hunter22-typed")));
        assert!(reach.carries_value(&url("http://cdn.example/p?u=the+long+query")));
        // The app's own URL is no value of the step's.
        assert!(!reach.carries_value(&url("http://cdn.example/p?u=http://127.0.0.1:4000/")));
    }

    #[test]
    fn a_document_is_the_apps_until_step_code_acts_again() {
        let mut reach = StepReach::default();
        reach.call(Reach::Navigate, &json!({ "url": "http://127.0.0.1:4000/" }));
        reach.navigation_started("frame@1", "http://127.0.0.1:4000/");
        assert!(reach.app_document_loading("frame@1", "http://127.0.0.1:4000/#top"));
        // Before the navigation commits, the frame still shows the old document.
        assert!(!reach.app_document_loading("frame@1", "about:blank"));
        reach.call(Reach::Act, &json!({ "selector": "text=next" }));
        assert!(!reach.app_document_loading("frame@1", "http://127.0.0.1:4000/"));
        // A navigation the click set going loads the app's next document.
        reach.navigation_started("frame@1", "http://127.0.0.1:4000/next");
        assert!(reach.app_document_loading("frame@1", "http://127.0.0.1:4000/next"));
        assert!(!reach.app_document_loading("frame@2", "http://127.0.0.1:4000/next"));
    }

    #[test]
    fn running_code_marks_the_test_until_its_candidate_is_forgiven() {
        let mut reach = StepReach::default();
        reach.mark();
        reach.call(Reach::RunCode, &json!({ "expression": "() => 1" }));
        assert!(reach.ran_code());
        reach.forgive();
        assert!(!reach.ran_code());
        reach.call(Reach::RunCode, &json!({ "expression": "() => 1" }));
        reach.mark();
        reach.forgive();
        assert!(
            reach.ran_code(),
            "an earlier execution's code is not forgiven"
        );
    }

    #[test]
    fn a_block_is_the_current_codes_until_earlier_code_ran_its_own_javascript() {
        let mut reach = StepReach::default();
        reach.mark();
        reach.call(Reach::Act, &json!({ "selector": "button" }));
        assert_eq!(reach.culprit(), Culprit::CurrentCode);
        reach.call(Reach::RunCode, &json!({ "expression": "() => 1" }));
        assert_eq!(reach.culprit(), Culprit::CurrentCode);
        reach.mark();
        assert_eq!(reach.culprit(), Culprit::EarlierCode);
        // A candidate that ran code and was forgiven leaves nothing to blame.
        let mut reach = StepReach::default();
        reach.mark();
        reach.call(Reach::RunCode, &json!({ "expression": "() => 1" }));
        reach.forgive();
        reach.mark();
        assert_eq!(reach.culprit(), Culprit::CurrentCode);
    }

    #[test]
    fn acts_and_code_of_step_codes_own_may_answer_late() {
        let app = |host: &str| host != "127.0.0.1:4000";
        let mut reach = StepReach::default();
        reach.mark();
        reach.call(Reach::Navigate, &json!({ "url": "http://127.0.0.1:4000/" }));
        reach.call(Reach::Act, &json!({ "value": "buy milk" }));
        // Before step code ran JavaScript of its own, a navigation is answered by the app
        // alone; reads and step code's own requests set nothing going in a page.
        for quiet in [
            Reach::Navigate,
            Reach::Read,
            Reach::Check,
            Reach::Request,
            Reach::ReadCode,
        ] {
            assert_eq!(reach.may_answer_late(quiet, false, app), None, "{quiet:?}");
        }
        assert!(!reach.named_outside(app));
        assert_eq!(
            reach.may_answer_late(Reach::RunCode, false, app),
            Some(Late::Code)
        );
        // The app may answer a user's act by navigating, which Playwright waits for only
        // after a click or a key press.
        assert_eq!(
            reach.may_answer_late(Reach::Act, false, app),
            Some(Late::Act)
        );
        // A secret in play, or a host outside the allowed origins step code typed, may be
        // carried by the app's request after any act or navigation.
        assert_eq!(
            reach.may_answer_late(Reach::Act, true, app),
            Some(Late::Act)
        );
        assert_eq!(
            reach.may_answer_late(Reach::Navigate, true, app),
            Some(Late::Act)
        );
        assert_eq!(reach.may_answer_late(Reach::Read, true, app), None);
        assert_eq!(reach.may_answer_late(Reach::Check, true, app), None);
        let mut typed = StepReach::default();
        typed.call(Reach::Act, &json!({ "value": "cdn.example.com/x.png" }));
        assert!(typed.named_outside(app));
        assert!(typed.may_answer_late(Reach::Act, false, app).is_some());
        assert!(typed.may_answer_late(Reach::Navigate, false, app).is_some());
        // A host of the allowed origins typed is not outside.
        let mut own = StepReach::default();
        own.call(Reach::Act, &json!({ "value": "http://127.0.0.1:4000/x" }));
        assert!(!own.named_outside(app));
        // A script that only reads is still step code's own code, blamed as such.
        reach.call(Reach::ReadCode, &json!({ "expression": "() => 1" }));
        assert!(reach.ran_code());
        // Once step code ran JavaScript of its own, its listeners may answer any act.
        reach.mark();
        assert!(reach.may_answer_late(Reach::Act, false, app).is_some());
        assert!(reach.may_answer_late(Reach::Navigate, false, app).is_some());
        assert_eq!(reach.may_answer_late(Reach::Read, false, app), None);
        assert_eq!(reach.may_answer_late(Reach::Request, false, app), None);
        assert_eq!(reach.may_answer_late(Reach::ReadCode, false, app), None);
    }

    #[test]
    fn a_flood_of_text_names_every_host() {
        let mut reach = StepReach::default();
        let big = "x".repeat(MAX_TEXT_BYTES);
        reach.call(Reach::Act, &json!({ "value": big }));
        reach.call(Reach::Act, &json!({ "value": big }));
        assert!(reach.names_host_of(&url("https://anything.example/")));
    }
}
