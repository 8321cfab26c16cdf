//! The rule that decides what becomes of a request to an origin `[browser] allowed_origins`
//! does not allow: loaded for the app, blocked quietly, or blocked and failing the step. It is
//! one ordered list, [`CLASSES`], whose first class that applies decides; docs/configuration.md
//! shows the same list as a table, and a test checks that the two agree.
//!
//! Main type: [`TrafficClass`]; the decision is [`classify`]. The facts it decides on are the
//! browser's own (the request's type and method, its frame, whether it is a navigation) and what
//! the guard knows of step code (`step_reach.rs`): whether it ran its own JavaScript in a page,
//! which hosts and values it put into the page, and when it last acted.

/// What becomes of a request to another origin.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Fetched by prettyplay and handed to the page, because the app's page needs it.
    Loaded,
    /// Never sent, listed in the test's log; the test goes on.
    Blocked,
    /// Never sent, and the step that caused it fails (its code is never cached).
    Failed,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Loaded => "loaded",
            Outcome::Blocked => "blocked",
            Outcome::Failed => "failed",
        }
    }
}

/// Where the guard heard of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// A page's request or WebSocket, which the context's routes caught before it left.
    Page,
    /// Step code's own `page.goto` (checked before it is sent) or `request.*` call.
    StepCall,
    /// A connection the outbound proxy refused: what routes do not see (a redirect's later
    /// hop, a service worker's request).
    Proxy,
}

/// What the guard knows of one request when it decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Facts {
    pub(crate) source: Source,
    /// A navigation of a page's top-level frame (a link, a form, `location`, `window.open`).
    pub(crate) top_level: bool,
    /// A `GET` without a body for a script, stylesheet, font, image or media.
    pub(crate) read_only: bool,
    /// Its URL, headers or body hold a secret of the run.
    pub(crate) carries_secret: bool,
    /// Step code ran JavaScript of its own in a page of the test before it.
    pub(crate) step_ran_code: bool,
    /// Step code named its host in what it put into the page or sent (`fill`, `goto`, ...).
    pub(crate) host_named_by_step: bool,
    /// Its URL holds a value step code typed or sent (8 characters or more).
    pub(crate) carries_step_value: bool,
    /// The frame asking for it holds a document of an allowed origin that loaded after step
    /// code's last action (a click, a fill, ...): the app's own markup and scripts ask now.
    pub(crate) app_document_loading: bool,
}

/// One class of requests: when it applies, and what becomes of them.
pub(crate) struct TrafficClass {
    /// A short name, as logs and the docs' table show it.
    pub(crate) name: &'static str,
    pub(crate) applies: fn(&Facts) -> bool,
    pub(crate) outcome: Outcome,
    /// What the class is, as docs/configuration.md says it.
    pub(crate) rule: &'static str,
    /// An example of a request of the class.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "only the docs' table shows it, which a test checks"
        )
    )]
    pub(crate) example: &'static str,
}

/// The classes in the order they are tried; the first that applies decides. Everything that
/// step code could have caused comes before the app's own traffic, so that nothing it caused is
/// ever loaded or let pass quietly.
pub(crate) const CLASSES: &[TrafficClass] = &[
    TrafficClass {
        name: "secret",
        applies: |f| f.carries_secret,
        outcome: Outcome::Failed,
        rule: "its URL, headers or body hold a secret of the run",
        example: "an analytics beacon with the password the step typed",
    },
    TrafficClass {
        name: "step call",
        applies: |f| f.source == Source::StepCall,
        outcome: Outcome::Failed,
        rule: "step code's own `page.goto` or `request.*` call",
        example: "`request.get('https://other.example/')`",
    },
    TrafficClass {
        name: "navigation",
        applies: |f| f.top_level,
        outcome: Outcome::Failed,
        rule: "a page navigates there",
        example: "a clicked link, a form, `location = ...`, `window.open`",
    },
    TrafficClass {
        name: "unrouted",
        applies: |f| f.source == Source::Proxy,
        outcome: Outcome::Failed,
        rule: "a connection the context's routes did not see",
        example: "a redirect's later hop, a service worker's request",
    },
    TrafficClass {
        name: "step code",
        applies: |f| f.step_ran_code,
        outcome: Outcome::Failed,
        rule: "anything, once step code ran its own JavaScript in a page of the test",
        example: "a `<script src>` that `page.evaluate` inserted",
    },
    TrafficClass {
        name: "named by step",
        applies: |f| f.host_named_by_step,
        outcome: Outcome::Failed,
        rule: "its host is one step code put into the page or sent",
        example: "an app's preview image of a URL the step typed",
    },
    TrafficClass {
        name: "step value",
        applies: |f| f.read_only && f.app_document_loading && f.carries_step_value,
        outcome: Outcome::Blocked,
        rule: "a subresource as below whose URL holds a value step code typed or sent",
        example: "a tracking pixel with the URL the step opened",
    },
    TrafficClass {
        name: "app subresource",
        applies: |f| f.read_only && f.app_document_loading,
        outcome: Outcome::Loaded,
        rule: "a `GET` of a script, stylesheet, font, image or media by a page of an allowed \
               origin, while it loads and before step code acts on it again",
        example: "a web font, jQuery from a CDN",
    },
    TrafficClass {
        name: "app traffic",
        applies: |_| true,
        outcome: Outcome::Blocked,
        rule: "anything else the app's pages send",
        example: "an analytics beacon, a `ping`, `fetch` or XHR, a WebSocket, a frame",
    },
];

/// The resource types of read-only subresources, as Playwright names them.
const READ_ONLY_TYPES: &[&str] = &["script", "stylesheet", "font", "image", "media"];

/// Whether a request of Playwright's `resource_type`, `method` and body is a read-only
/// subresource.
pub(crate) fn is_read_only(resource_type: &str, method: &str, has_body: bool) -> bool {
    READ_ONLY_TYPES.contains(&resource_type) && method.eq_ignore_ascii_case("GET") && !has_body
}

/// The class that decides what becomes of a request with `facts`.
pub(crate) fn classify(facts: &Facts) -> &'static TrafficClass {
    CLASSES
        .iter()
        .find(|class| (class.applies)(facts))
        .unwrap_or(&CLASSES[CLASSES.len() - 1])
}

/// The one-sentence rule, as README.md states it.
#[cfg(test)]
pub(crate) const RULE: &str = "Requests to other origins are judged by who could have caused \
    them: whatever step code could have caused, and whatever carries a secret, fails its step; \
    the app's own pages may load scripts, styles, fonts, images and media while they load; \
    anything else the app sends is blocked and listed, and the test goes on.";

/// The table of [`CLASSES`] in Markdown, as docs/configuration.md shows it.
#[cfg(test)]
pub(crate) fn docs_table() -> String {
    let mut table = String::from("| a request to another origin | becomes | for example |\n");
    table.push_str("|---|---|---|\n");
    for class in CLASSES {
        table.push_str(&format!(
            "| {} | **{}** | {} |\n",
            class.rule,
            class.outcome.as_str(),
            class.example
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> Facts {
        Facts {
            source: Source::Page,
            top_level: false,
            read_only: true,
            carries_secret: false,
            step_ran_code: false,
            host_named_by_step: false,
            carries_step_value: false,
            app_document_loading: true,
        }
    }

    fn name(facts: Facts) -> &'static str {
        classify(&facts).name
    }

    #[test]
    fn each_class_decides_its_own_row() {
        assert_eq!(name(app()), "app subresource");
        assert_eq!(
            name(Facts {
                carries_secret: true,
                ..app()
            }),
            "secret"
        );
        assert_eq!(
            name(Facts {
                source: Source::StepCall,
                ..app()
            }),
            "step call"
        );
        assert_eq!(
            name(Facts {
                top_level: true,
                read_only: false,
                ..app()
            }),
            "navigation"
        );
        assert_eq!(
            name(Facts {
                source: Source::Proxy,
                ..app()
            }),
            "unrouted"
        );
        assert_eq!(
            name(Facts {
                step_ran_code: true,
                ..app()
            }),
            "step code"
        );
        assert_eq!(
            name(Facts {
                host_named_by_step: true,
                ..app()
            }),
            "named by step"
        );
        assert_eq!(
            name(Facts {
                carries_step_value: true,
                ..app()
            }),
            "step value"
        );
        assert_eq!(
            name(Facts {
                read_only: false,
                ..app()
            }),
            "app traffic"
        );
        assert_eq!(
            name(Facts {
                app_document_loading: false,
                ..app()
            }),
            "app traffic"
        );
    }

    #[test]
    fn nothing_step_code_could_cause_is_loaded_or_let_pass() {
        // Every combination of the facts: whenever one of them ties the request to step code
        // or a secret, it fails.
        for bits in 0u32..1 << 9 {
            let bit = |i: u32| bits & (1 << i) != 0;
            let facts = Facts {
                source: match (bit(0), bit(1)) {
                    (true, _) => Source::StepCall,
                    (false, true) => Source::Proxy,
                    (false, false) => Source::Page,
                },
                top_level: bit(2),
                read_only: bit(3),
                carries_secret: bit(4),
                step_ran_code: bit(5),
                host_named_by_step: bit(6),
                carries_step_value: bit(7),
                app_document_loading: bit(8),
            };
            let tied = facts.source != Source::Page
                || facts.top_level
                || facts.carries_secret
                || facts.step_ran_code
                || facts.host_named_by_step;
            let outcome = classify(&facts).outcome;
            if tied {
                assert_eq!(outcome, Outcome::Failed, "{facts:?}");
            }
            if outcome == Outcome::Loaded {
                assert!(facts.read_only && facts.app_document_loading && !facts.carries_step_value);
            }
        }
    }

    #[test]
    fn read_only_means_a_plain_get_of_a_subresource() {
        assert!(is_read_only("font", "GET", false));
        assert!(is_read_only("script", "get", false));
        assert!(!is_read_only("font", "POST", false));
        assert!(!is_read_only("image", "GET", true));
        for kind in [
            "fetch",
            "xhr",
            "ping",
            "document",
            "websocket",
            "other",
            "beacon",
        ] {
            assert!(!is_read_only(kind, "GET", false), "{kind}");
        }
    }

    /// `text` with every run of white space one space, as Markdown reads wrapped lines.
    fn words(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_docs_state_the_rule_and_show_the_classes_as_they_are() {
        let docs = include_str!("../../docs/configuration.md");
        assert!(
            docs.contains(&docs_table()),
            "docs/configuration.md does not hold the table of traffic classes; it should read:\n{}",
            docs_table()
        );
        assert!(
            words(docs).contains(RULE),
            "docs/configuration.md does not state the rule"
        );
        let readme = include_str!("../../README.md");
        assert!(
            words(readme).contains(RULE),
            "README.md does not state the rule"
        );
    }
}
