//! The values that must never reach a sink: what comes from `.env` or the environment, and the
//! `[vars]` names listed in `secret`. Every sink applies them at its boundary: the LLM request
//! builder writes `${NAME}` in place of a value, the event stream (terminal, `--events`, JUnit,
//! HTML, `last-run.json`) and the log write `***`, and the cache refuses code that holds one.
//!
//! Main type: [`Secrets`]. Values shorter than [`MIN_SECRET_CHARS`] are refused when variables
//! are resolved: a one-letter "secret" would mask every such letter of every report.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use regex::{Regex, RegexBuilder};

use super::constant_strings::constant_strings;
use super::encodings::{literal_forms, prefix_pattern, value_pattern};

/// The fewest characters a secret value may have to be masked meaningfully.
pub(crate) const MIN_SECRET_CHARS: usize = 4;

/// What the cache's refusal finds in step code (see [`Secrets::found_in_code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CodeSecret<'a> {
    /// The code holds the value of the secret of this name, as written or built from constants.
    Holds(&'a str),
    /// The code builds strings from constants past the folder's limits (a string over 1 MiB,
    /// expressions nested over 200 deep): a secret could hide in what was not evaluated.
    Unchecked,
}

/// What a secret value becomes in terminal output, reports and logs.
pub(crate) const MASK: &str = "***";

/// The markers that bounded texts end with where they were cut (`cut_text`, the page
/// snapshot's budget, and the `…` of Playwright's element previews). A secret cut short just
/// before one is still masked.
const CUT_MARKERS: &str = r"(?:… \d+ bytes cut|\n\[\.\.\. snapshot truncated|…|\.\.\.)";

/// The compiled patterns can be large for long values (a PEM key), so the limits are raised
/// well above the regex crate's defaults.
const PATTERN_SIZE_LIMIT: usize = 512 * 1024 * 1024;

/// The longest form, in characters, that gets a pattern per character. Longer ones (a key, a
/// certificate) are found by their usual encodings as plain strings: a pattern per character
/// grows with the value, and so do the time and memory to build it.
const MAX_PATTERN_CHARS: usize = 512;

/// The secret values of a run, with their variable names.
#[derive(Clone, Default)]
pub struct Secrets {
    /// `(name, value)`, longest value first, so a value that contains another is replaced
    /// whole.
    entries: Vec<(String, String)>,
    /// The patterns that find them; `None` when there are no entries.
    matcher: Option<Arc<Matcher>>,
}

/// What finds the entries in a text.
struct Matcher {
    /// Every form of every entry (the whole value, and each line of a value with several), in
    /// [`crate::secrets::encodings`]' sense, longest first; group `i + 1` is `forms[i]`.
    all: Regex,
    /// The entry name of each form.
    forms: Vec<String>,
    /// The first characters (at least [`MIN_SECRET_CHARS`]) of a form followed by a cut
    /// marker (group `marker`); `None` when no form is long enough to be cut.
    cut: Option<Regex>,
    /// The entry name of each form `cut` has a group for.
    cut_forms: Vec<String>,
}

impl PartialEq for Secrets {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl Eq for Secrets {}

impl Secrets {
    /// The secrets `entries` name, as `(name, value)`. Empty values are ignored.
    pub fn new(entries: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut entries: Vec<(String, String)> = entries
            .into_iter()
            .filter(|(_, value)| !value.trim().is_empty())
            .collect();
        entries.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
        entries.dedup();
        let matcher = (!entries.is_empty()).then(|| Arc::new(Matcher::new(&entries)));
        Self { entries, matcher }
    }

    /// These secrets and `more`, as `(name, value)`.
    pub fn with(&self, more: impl IntoIterator<Item = (String, String)>) -> Self {
        Secrets::new(self.entries.iter().cloned().chain(more))
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `text` with every secret value, in every form it can take, replaced by `***`.
    pub fn mask<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.replace(text, |_| MASK.to_owned())
    }

    /// `text` with every secret value, in every form it can take, replaced by `${NAME}`: what
    /// the LLM may see.
    pub fn placeholders<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.replace(text, |name| format!("${{{name}}}"))
    }

    /// [`Secrets::mask`] into an owned string, in place.
    pub fn mask_in_place(&self, text: &mut String) {
        if let Cow::Owned(masked) = self.mask(text) {
            *text = masked;
        }
    }

    /// [`Secrets::placeholders`] into an owned string, in place.
    pub fn placeholders_in_place(&self, text: &mut String) {
        if let Cow::Owned(replaced) = self.placeholders(text) {
            *text = replaced;
        }
    }

    /// The name of the first secret whose value `text` holds, in any form, if any.
    pub fn found_in(&self, text: &str) -> Option<&str> {
        let matcher = self.matcher.as_deref()?;
        let found = matcher.all.find(text)?;
        Some(matcher.name_of(found.as_str()))
    }

    /// What of these secrets step code holds: a value written in the code in any form
    /// [`Secrets::found_in`] finds, or one that a string the code builds from constants holds
    /// (`'Hunt' + 'er7'`, `String.fromCharCode(72, 117)`; see `constant_strings.rs`).
    pub(crate) fn found_in_code(&self, code: &str) -> Option<CodeSecret<'_>> {
        self.matcher.as_ref()?;
        if let Some(name) = self.found_in(code) {
            return Some(CodeSecret::Holds(name));
        }
        let folded = constant_strings(code, MIN_SECRET_CHARS);
        for text in &folded.strings {
            if let Some(name) = self.found_in(text) {
                return Some(CodeSecret::Holds(name));
            }
        }
        folded.beyond_limits.then_some(CodeSecret::Unchecked)
    }

    fn replace<'a>(&self, text: &'a str, with: impl Fn(&str) -> String) -> Cow<'a, str> {
        let Some(matcher) = self.matcher.as_deref() else {
            return Cow::Borrowed(text);
        };
        let mut out = Cow::Borrowed(text);
        if matcher.all.is_match(&out) {
            let replaced = matcher
                .all
                .replace_all(&out, |caps: &regex::Captures<'_>| {
                    with(matcher.name_of(&caps[0]))
                })
                .into_owned();
            out = Cow::Owned(replaced);
        }
        if let Some(cut) = &matcher.cut
            && cut.is_match(&out)
        {
            let replaced = cut
                .replace_all(&out, |caps: &regex::Captures<'_>| {
                    let name = (1..=matcher.cut_forms.len())
                        .find(|i| caps.get(*i).is_some())
                        .map_or("", |i| matcher.cut_forms[i - 1].as_str());
                    let marker = caps.name("marker").map_or("", |m| m.as_str());
                    format!("{}{marker}", with(name))
                })
                .into_owned();
            out = Cow::Owned(replaced);
        }
        out
    }
}

impl Matcher {
    fn new(entries: &[(String, String)]) -> Matcher {
        let mut forms: Vec<(String, String)> = Vec::new();
        for (name, value) in entries {
            forms.push((name.clone(), value.trim().to_owned()));
            let lines: Vec<&str> = value.trim().lines().map(str::trim).collect();
            if lines.len() > 1 {
                for line in lines {
                    if line.chars().count() >= MIN_SECRET_CHARS {
                        forms.push((name.clone(), line.to_owned()));
                    }
                }
            }
        }
        forms.sort_by_key(|form| std::cmp::Reverse(form.1.chars().count()));
        forms.dedup_by(|a, b| a.1 == b.1);
        let all = compile(&alternation(forms.iter().map(|(_, form)| pattern_of(form))))
            .unwrap_or_else(|| literal_fallback(&forms));
        let cut_forms: Vec<(String, String)> = forms
            .iter()
            .filter(|(_, form)| form.chars().count() <= MAX_PATTERN_CHARS)
            .filter_map(|(name, form)| {
                prefix_pattern(form, MIN_SECRET_CHARS).map(|p| (name.clone(), p))
            })
            .collect();
        let cut = (!cut_forms.is_empty()).then_some(()).and_then(|()| {
            let prefixes = alternation(cut_forms.iter().map(|(_, p)| p.clone()));
            compile(&format!("{prefixes}(?P<marker>{CUT_MARKERS})"))
        });
        Matcher {
            all,
            forms: forms.into_iter().map(|(name, _)| name).collect(),
            cut,
            cut_forms: cut_forms.into_iter().map(|(name, _)| name).collect(),
        }
    }

    /// The entry name of the form that `found` (a match of `all`) is.
    fn name_of(&self, found: &str) -> &str {
        // The first group that matches the whole match is the form `all` chose there, because
        // alternation prefers the earlier branch.
        self.all
            .captures(found)
            .and_then(|caps| (1..=self.forms.len()).find(|i| caps.get(*i).is_some()))
            .map_or("", |i| self.forms[i - 1].as_str())
    }
}

/// The pattern of one form: every encoding per character, or the usual encodings as plain
/// strings past [`MAX_PATTERN_CHARS`].
fn pattern_of(form: &str) -> String {
    if form.chars().count() <= MAX_PATTERN_CHARS {
        return value_pattern(form);
    }
    let literals: Vec<String> = literal_forms(form)
        .iter()
        .map(|literal| regex::escape(literal))
        .collect();
    format!("(?:{})", literals.join("|"))
}

/// `(?:(a)|(b)|...)`: one group per pattern, so a match tells which one it was.
fn alternation(patterns: impl Iterator<Item = String>) -> String {
    let groups: Vec<String> = patterns.map(|p| format!("({p})")).collect();
    format!("(?:{})", groups.join("|"))
}

/// The pattern compiled, or `None` when it is over the size limit (a value of many kilobytes).
/// It is built from escaped characters and fixed alternatives, so size is all that can fail.
fn compile(pattern: &str) -> Option<Regex> {
    match RegexBuilder::new(pattern)
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_SIZE_LIMIT)
        .build()
    {
        Ok(regex) => Some(regex),
        // The error is not shown: it could quote the pattern, which spells the value.
        Err(_) => {
            tracing::warn!("a secret is too long to be found in its encoded forms");
            None
        }
    }
}

/// The forms as they are, when their every-encoding pattern is too large: masking then falls
/// back to the exact values and lines.
fn literal_fallback(forms: &[(String, String)]) -> Regex {
    let literal = alternation(forms.iter().map(|(_, form)| regex::escape(form)));
    // A literal alternation needs a few bytes per character of the values, far below the
    // limit for any value a process can hold in its environment.
    compile(&literal).expect("escaped literals compile")
}

/// Names only: a secret's value never reaches a debug print.
impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|(name, _)| format!("{name}=***")))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        Secrets::new([
            ("PASSWORD".to_owned(), "hunter22".to_owned()),
            ("TOKEN".to_owned(), "hunter22-long".to_owned()),
            ("EMPTY".to_owned(), String::new()),
        ])
    }

    #[test]
    fn values_are_masked_longest_first() {
        let s = secrets();
        assert_eq!(s.mask("a hunter22-long b hunter22 c"), "a *** b *** c");
        assert_eq!(
            s.placeholders("a hunter22-long b hunter22 c"),
            "a ${TOKEN} b ${PASSWORD} c"
        );
        assert!(matches!(s.mask("nothing here"), Cow::Borrowed(_)));
        assert_eq!(s.found_in("x hunter22"), Some("PASSWORD"));
        assert_eq!(s.found_in("x"), None);
    }

    #[test]
    fn code_holding_a_secret_whole_or_built_from_constants_is_found() {
        let s = secrets();
        let holds = |code: &str| s.found_in_code(code);
        assert_eq!(
            holds("fill('hunter22')"),
            Some(CodeSecret::Holds("PASSWORD"))
        );
        assert_eq!(
            holds("fill('hunt' + 'er22')"),
            Some(CodeSecret::Holds("PASSWORD"))
        );
        assert_eq!(
            holds("fill(`hunter${22}-long`)"),
            Some(CodeSecret::Holds("TOKEN"))
        );
        assert_eq!(holds("fill(vars.PASSWORD)"), None);
        assert_eq!(holds("fill('x'.repeat(1e8))"), Some(CodeSecret::Unchecked));
        // Without secrets nothing is parsed, so nothing is refused.
        assert_eq!(
            Secrets::default().found_in_code("fill('x'.repeat(1e8))"),
            None
        );
    }

    #[test]
    fn debug_shows_names_only() {
        let shown = format!("{:?}", secrets());
        assert!(!shown.contains("hunter"), "{shown}");
        assert!(shown.contains("PASSWORD=***"), "{shown}");
    }

    #[test]
    fn a_value_cut_short_before_a_cut_marker_is_masked() {
        let s = secrets();
        assert_eq!(
            s.mask("Received: hunte… 812 bytes cut"),
            "Received: ***… 812 bytes cut"
        );
        assert_eq!(
            s.mask("- text: hunter2\n[... snapshot truncated: 9 of 99 characters left out ...]"),
            "- text: ***\n[... snapshot truncated: 9 of 99 characters left out ...]"
        );
        assert_eq!(s.mask("hun… 812 bytes cut"), "hun… 812 bytes cut");
        // Playwright's element previews end in a bare ellipsis.
        assert_eq!(
            s.mask("<button>Token hunter…</button>"),
            "<button>Token ***…</button>"
        );
    }

    #[test]
    fn letter_case_is_kept_so_a_common_word_masks_only_itself() {
        let s = Secrets::new([("PASSWORD".to_owned(), "password".to_owned())]);
        assert_eq!(s.mask("the password field"), "the *** field");
        assert_eq!(
            s.mask("getByLabel('Password') ${PASSWORD}"),
            "getByLabel('Password') ${PASSWORD}"
        );
        assert_eq!(s.found_in("getByLabel('Password')"), None);
    }

    #[test]
    fn each_line_of_a_multi_line_value_is_masked_alone() {
        let s = Secrets::new([("KEY".to_owned(), "first-line\nsecond-line\nab\n".to_owned())]);
        assert_eq!(s.mask("x first-line y"), "x *** y");
        assert_eq!(s.mask("x second-line y"), "x *** y");
        assert_eq!(s.mask("x first-line second-line ab y"), "x *** y");
        assert_eq!(s.mask("x first-line\\nsecond-line\\nab y"), "x *** y");
        // A line too short to mask meaningfully stays.
        assert_eq!(s.mask("ab"), "ab");
    }

    #[test]
    fn a_value_of_many_kilobytes_is_still_masked() {
        let value: String = (0..65536)
            .map(|i| {
                if i % 61 == 0 {
                    '"'
                } else {
                    char::from(b'a' + (i % 26) as u8)
                }
            })
            .collect();
        let s = Secrets::new([("KEY".to_owned(), value.clone())]);
        assert_eq!(s.mask(&format!("<{value}>")), "<***>");
        let json = serde_json::to_string(&value).unwrap();
        assert_eq!(s.mask(&json), "\"***\"");
        let form: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
        assert_eq!(s.mask(&format!("q={form}")), "q=***");
    }

    /// The encodings a secret meets on its way to a sink: as JSON strings (once and twice, the
    /// LLM request and an error quoting one), HTML and XML text and attributes,
    /// URLs (form and `%20` encoding, path segments), page text joining lines, and
    /// `text-transform`.
    fn encodings(value: &str) -> Vec<(&'static str, String)> {
        let json = serde_json::to_string(value).unwrap();
        let json = json[1..json.len() - 1].to_owned();
        let twice = serde_json::to_string(&json).unwrap();
        let twice = twice[1..twice.len() - 1].to_owned();
        let form: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
        let mut path = url::Url::parse("http://h/").unwrap();
        path.path_segments_mut().unwrap().push(value);
        // As the HTML and JUnit reports escape text and attributes.
        let html = value
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        let attribute = html
            .replace('"', "&quot;")
            .replace('\'', "&#39;")
            .replace('\n', "&#10;")
            .replace('\t', "&#9;");
        let mut query = url::Url::parse("http://h/").unwrap();
        query.set_query(Some(value));
        vec![
            ("raw", value.to_owned()),
            ("json", json.clone()),
            ("json twice", twice),
            ("javascript", json.replace('\'', "\\'")),
            ("html", html),
            ("html attribute", attribute),
            ("form", form.clone()),
            ("percent", form.replace('+', "%20")),
            ("path", path.path()[1..].to_owned()),
            ("query", query.query().unwrap_or_default().to_owned()),
            (
                "joined",
                value.split_whitespace().collect::<Vec<_>>().join(" "),
            ),
        ]
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        #[test]
        fn every_encoding_of_a_generated_value_is_masked(
            // Values are trimmed, because masking leaves a value's outer whitespace alone.
            value in "[a-zA-Z0-9\"'\\%&<>/+#=?ä€😀 \n\t-]{4,24}".prop_map(|v| v.trim().to_owned())
        ) {
            proptest::prop_assume!(value.chars().count() >= MIN_SECRET_CHARS);
            let s = Secrets::new([("SECRET".to_owned(), value.clone())]);
            for (encoding, encoded) in encodings(&value) {
                let text = format!("«{encoded}»");
                let masked = s.mask(&text);
                proptest::prop_assert_eq!(
                    masked.as_ref(), "«***»", "{} form {:?} of {:?}", encoding, encoded, value
                );
                let placeholders = s.placeholders(&text);
                proptest::prop_assert_eq!(placeholders.as_ref(), "«${SECRET}»");
            }
            for line in value.lines().map(str::trim) {
                if line.chars().count() >= MIN_SECRET_CHARS {
                    let masked = s.mask(line);
                    proptest::prop_assert_eq!(masked.as_ref(), "***", "line {:?}", line);
                }
            }
        }
    }
}
