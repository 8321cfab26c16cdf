//! Navigation sentences read with the run's `[browser] allowed_origins`: a sentence that names
//! the app ("navigate to the TodoMVC application", where TodoMVC is in the page's title or is
//! its main heading) opens the app, and a navigation sentence never picks a link to an origin
//! the run does not allow, because following it could only be blocked.
//!
//! Main function: [`within`], which says how the test's writer (`in_test.rs`) hands a sentence
//! to the shapes of the registry: as written, as `open the app`, on the page without its links
//! that lead outside, or not at all.

use crate::script::PageState;
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::tokens::{Tok, normalize, skip, starts, tokenize};

/// The verbs that start a navigation sentence, each with the words that may follow it.
const NAVIGATION_VERBS: &[&[&str]] = &[
    &["navigate", "to"],
    &["go", "to"],
    &["browse", "to"],
    &["open"],
    &["visit"],
    &["load"],
    &["navigate"],
    &["go"],
];

/// The nouns that say what the words before them name is the whole app.
const APP_NOUNS: &[&[&str]] = &[
    &["web", "app"],
    &["web", "application"],
    &["application"],
    &["app"],
    &["website"],
    &["site"],
    &["page"],
];

/// How the shapes of the registry read a sentence, with the run's origins in mind.
#[derive(Debug, Clone)]
pub(crate) enum Within {
    /// Any sentence but a navigation one, or a navigation sentence on a page whose links all
    /// lead to origins the run allows: the sentence as written, on its page.
    AsWritten,
    /// A navigation sentence that names the app: `open the app`.
    TheApp,
    /// A navigation sentence on a page with links to origins the run does not allow: the
    /// sentence on the page without those links, whose names `left_out` gives.
    Inside {
        state: PageState,
        left_out: Vec<String>,
    },
    /// A navigation sentence that names a link to an origin the run does not allow: no other
    /// element is what it means, so the shapes write nothing of it.
    Refused(Decline),
}

/// How the shapes read `sentence` on the page of `state`; `allows` says whether the run's
/// pages may go to a URL.
pub(crate) fn within(
    sentence: &str,
    columns: &[String],
    state: &PageState,
    allows: &dyn Fn(&str) -> bool,
) -> Within {
    let toks = normalize(tokenize(sentence, columns));
    let Some(rest) = navigation(&toks) else {
        return Within::AsWritten;
    };
    if names_the_app(rest, state) {
        return Within::TheApp;
    }
    let (snapshot, left_out) = without_outside_links(&state.snapshot, &state.url, allows);
    if left_out.is_empty() {
        return Within::AsWritten;
    }
    let named: Vec<String> = rest
        .iter()
        .flat_map(|tok| words(text_of(tok)))
        .filter(|w| !matches!(w.as_str(), "the" | "link" | "page"))
        .collect();
    if let Some(link) = left_out.iter().find(|link| words(link) == named) {
        return Within::Refused(Decline::new(format!(
            "the link {link} leads to an origin outside [browser] allowed_origins, and a \
             navigation step does not follow it; add its origin to allowed_origins, or open a \
             page of the app by its path"
        )));
    }
    Within::Inside {
        state: PageState {
            snapshot,
            ..state.clone()
        },
        left_out,
    }
}

impl Within {
    /// The sentence the shapes read instead of `sentence`.
    pub(crate) fn sentence<'s>(&self, sentence: &'s str) -> &'s str {
        match self {
            Within::TheApp => "open the app",
            _ => sentence,
        }
    }

    /// The page the shapes read instead of `state`.
    pub(crate) fn state<'s>(&'s self, state: &'s PageState) -> &'s PageState {
        match self {
            Within::Inside { state, .. } => state,
            _ => state,
        }
    }

    /// Whether the shapes may write the sentence at all.
    pub(crate) fn refuses(&self) -> Option<&Decline> {
        match self {
            Within::Refused(refusal) => Some(refusal),
            _ => None,
        }
    }

    /// The shapes' `decline`, saying what the run's origins left out of the page.
    pub(crate) fn decline(&self, decline: Decline) -> Decline {
        match self {
            Within::AsWritten | Within::TheApp => decline,
            Within::Refused(refusal) => refusal.clone(),
            Within::Inside { left_out, .. } => Decline(
                format!(
                    "{}; a navigation step does not follow a link to an origin outside [browser] \
                     allowed_origins, and the page's links {} lead outside",
                    decline.0,
                    left_out.join(", ")
                ),
                decline.1,
            ),
        }
    }
}

/// The words after the verb of a navigation sentence, or `None` for another sentence.
fn navigation(toks: &[Tok]) -> Option<&[Tok]> {
    NAVIGATION_VERBS
        .iter()
        .filter_map(|form| starts(toks, form))
        .max()
        .map(|n| &toks[n..])
}

/// Whether the words after a navigation verb name the app: `the X application` (`app`,
/// `site`, `website`, `web app`, `page`) where X's words run in the page's title, or are its
/// main heading. `page` names the app only on the app's first page (the base URL), because
/// another page's title names that page.
fn names_the_app(rest: &[Tok], state: &PageState) -> bool {
    if is_the_app_name(rest, state) {
        return true;
    }
    let rest = skip(rest, &["the"]);
    let Some((noun, name)) = APP_NOUNS.iter().find_map(|noun| {
        let at = rest.len().checked_sub(noun.len())?;
        starts(&rest[at..], noun).map(|_| (noun, &rest[..at]))
    }) else {
        return false;
    };
    let name: Vec<String> = name.iter().flat_map(|tok| words(text_of(tok))).collect();
    if name.is_empty() {
        return false;
    }
    let title = words(&state.title);
    let in_title = title.windows(name.len()).any(|run| run == name.as_slice());
    let heading = main_headings(&state.snapshot)
        .iter()
        .any(|heading| words(heading) == name);
    if *noun == ["page"] {
        return (title == name || heading) && at_the_base_url(state);
    }
    in_title || heading
}

/// Whether the words after a navigation verb are, with no noun after them, the whole title or
/// a main heading of the app's first page, on that page (`navigate to The Can Store` on a page
/// titled "The Can Store"). A leading `the` is no part of the comparison on either side.
fn is_the_app_name(rest: &[Tok], state: &PageState) -> bool {
    let bare = |mut w: Vec<String>| {
        if w.first().is_some_and(|first| first == "the") {
            w.remove(0);
        }
        w
    };
    let name = bare(rest.iter().flat_map(|tok| words(text_of(tok))).collect());
    if name.is_empty() || !at_the_base_url(state) {
        return false;
    }
    bare(words(&state.title)) == name
        || main_headings(&state.snapshot)
            .iter()
            .any(|heading| bare(words(heading)) == name)
}

/// The text a token stands for.
fn text_of(tok: &Tok) -> &str {
    match tok {
        Tok::Word(_, written) => written,
        Tok::Lit(text) => text,
    }
}

/// The lowercase words of `text`, punctuation aside.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The names of the page's level-1 headings.
pub(crate) fn main_headings(snapshot: &str) -> Vec<String> {
    let snap = Snapshot::parse(snapshot);
    snap.nodes
        .iter()
        .filter(|node| node.role == "heading" && node.attrs.iter().any(|a| a == "level=1"))
        .filter_map(|node| node.name.clone())
        .collect()
}

/// Whether the page is the base URL's page (its fragment and query aside).
fn at_the_base_url(state: &PageState) -> bool {
    let Some(base) = state.base_url.as_deref() else {
        return false;
    };
    let (Ok(base), Ok(url)) = (url::Url::parse(base), url::Url::parse(&state.url)) else {
        return false;
    };
    let path = |u: &url::Url| u.path().trim_end_matches("index.html").to_owned();
    base.origin() == url.origin() && path(&base) == path(&url)
}

/// `snapshot` without the links whose `/url` (resolved against the page's `url`) the run does
/// not allow, and the names of the links left out.
fn without_outside_links(
    snapshot: &str,
    url: &str,
    allows: &dyn Fn(&str) -> bool,
) -> (String, Vec<String>) {
    let page = url::Url::parse(url).ok();
    let lines: Vec<&str> = snapshot.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut kept = Vec::with_capacity(lines.len());
    let mut left_out = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let line = lines[at];
        let end = lines[at + 1..]
            .iter()
            .position(|l| indent(l) <= indent(line))
            .map_or(lines.len(), |n| at + 1 + n);
        let link = Snapshot::parse(line).nodes.first().cloned();
        if let Some(link) = link.filter(|node| node.role == "link") {
            let outside = lines[at + 1..end]
                .iter()
                .filter(|l| indent(l) > indent(line))
                .filter_map(|l| l.trim_start().strip_prefix("- /url:"))
                .filter_map(|href| resolve(page.as_ref(), href.trim().trim_matches('"')))
                .any(|href| !allows(&href));
            if outside {
                left_out.push(format!(
                    "\"{}\"",
                    link.name.unwrap_or_else(|| "(unnamed)".to_owned())
                ));
                at = end;
                continue;
            }
        }
        kept.push(line);
        at += 1;
    }
    (kept.join("\n"), left_out)
}

/// `href` resolved against the page's URL, when it is a URL a link can go to.
fn resolve(page: Option<&url::Url>, href: &str) -> Option<String> {
    let url = match page {
        Some(page) => page.join(href).ok()?,
        None => url::Url::parse(href).ok()?,
    };
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r##"- generic [ref=e1]:
  - heading "todos" [level=1] [ref=e2]
  - textbox "What needs to be done?" [ref=e3]
  - link "All" [ref=e4]:
    - /url: "#/"
  - contentinfo [ref=e5]:
    - paragraph [ref=e6]:
      - text: Part of
      - link "TodoMVC" [ref=e7]:
        - /url: https://todomvc.com
"##;

    fn state(url: &str, title: &str) -> PageState {
        PageState {
            url: url.to_owned(),
            title: title.to_owned(),
            base_url: Some("http://127.0.0.1:8080/".to_owned()),
            snapshot: PAGE.to_owned(),
            ..PageState::default()
        }
    }

    fn local(url: &str) -> bool {
        url.starts_with("http://127.0.0.1:8080/")
    }

    fn written(sentence: &str, state: &PageState) -> Result<String, Decline> {
        write_step_within(sentence, &[], state, &local)
    }

    /// The code the test's writer writes for a sentence read on its own, with the run's
    /// origins.
    fn write_step_within(
        sentence: &str,
        columns: &[String],
        state: &PageState,
        allows: &dyn Fn(&str) -> bool,
    ) -> Result<String, Decline> {
        crate::writer::builtin::in_test::write_step_within(sentence, columns, state, allows)
    }

    const OPEN: &str = "async function step(page) {\n  await page.goto('');\n}";

    #[test]
    fn a_sentence_naming_the_app_by_its_title_or_heading_opens_the_app() {
        let page = state("http://127.0.0.1:8080/#/", "TodoMVC: React");
        for sentence in [
            "Navigate to the TodoMVC application",
            "open the TodoMVC app",
            "go to the todomvc site",
            "Navigate to the todos application",
            "navigate to the \"TodoMVC\" web app",
        ] {
            assert_eq!(written(sentence, &page).as_deref(), Ok(OPEN), "{sentence}");
        }
    }

    #[test]
    fn a_page_named_by_the_title_opens_the_app_only_on_the_base_urls_page() {
        let home = state("http://127.0.0.1:8080/", "Shop");
        assert_eq!(written("go to the Shop page", &home).as_deref(), Ok(OPEN));
        let cart = state("http://127.0.0.1:8080/cart.html", "Cart");
        assert_ne!(written("go to the Cart page", &cart).as_deref(), Ok(OPEN));
    }

    #[test]
    fn the_whole_title_or_main_heading_with_no_noun_names_the_app_on_its_first_page() {
        let home = state("http://127.0.0.1:8080/", "The Can Store");
        assert_eq!(
            written("Navigate to The Can Store", &home).as_deref(),
            Ok(OPEN)
        );
        assert_eq!(written("go to Can Store", &home).as_deref(), Ok(OPEN));
        assert_eq!(written("navigate to todos", &home).as_deref(), Ok(OPEN));
        // A part of the title is not the app's name, nor is the title on another page.
        assert_ne!(written("navigate to the Store", &home).as_deref(), Ok(OPEN));
        let other = state("http://127.0.0.1:8080/cans.html", "The Can Store");
        assert_ne!(
            written("Navigate to The Can Store", &other).as_deref(),
            Ok(OPEN)
        );
    }

    #[test]
    fn another_name_is_not_the_app() {
        let page = state("http://127.0.0.1:8080/", "TodoMVC: React");
        assert!(!names_the_app(
            &normalize(tokenize("the Angular application", &[])),
            &page
        ));
        assert!(!names_the_app(
            &normalize(tokenize("the application", &[])),
            &page
        ));
    }

    #[test]
    fn a_navigation_step_never_picks_a_link_outside_the_allowed_origins() {
        let page = state("http://127.0.0.1:8080/", "Todos");
        let declined = written("go to TodoMVC", &page).unwrap_err();
        assert!(
            declined.0.contains("\"TodoMVC\" leads to"),
            "{}",
            declined.0
        );
        let declined = written("go to the TodoMVC link", &page).unwrap_err();
        assert!(
            declined.0.contains("\"TodoMVC\" leads to"),
            "{}",
            declined.0
        );
        // A link inside the app is still followed.
        assert!(written("go to All", &page).unwrap().contains("All"));
        // Every origin allowed: the link is the step's.
        let anywhere = write_step_within("go to TodoMVC", &[], &page, &|_| true).unwrap();
        assert!(anywhere.contains("TodoMVC"), "{anywhere}");
    }

    #[test]
    fn only_links_outside_are_left_out_of_the_snapshot() {
        let (kept, left_out) = without_outside_links(PAGE, "http://127.0.0.1:8080/", &local);
        assert_eq!(left_out, ["\"TodoMVC\""]);
        assert!(kept.contains("link \"All\""));
        assert!(!kept.contains("todomvc.com"));
        assert!(kept.contains("text: Part of"));
    }
}
