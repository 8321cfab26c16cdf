//! How a cache entry's checks were proven: the record the mutation proof leaves with the code
//! it proved, kept in the entry's `proof` (docs/cache-format.md). A heal must fail under every
//! [`MutationKind`] the cached record lists.
//!
//! Main type: [`ProofRecord`], with [`MutationKind`] and [`Unproven`]. Format 5 writes the
//! record as a TOML table; format 4 wrote its text (`proven: hidden, removed`,
//! `none: <why>`), which [`ProofRecord::from_text`] reads.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A kind of mutation of the page (or of a response) a check failed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MutationKind {
    Hidden,
    Removed,
    OneMore,
    OneFewer,
    CheckedFlipped,
    EnabledFlipped,
    TitleChanged,
    UrlChanged,
    TextPrefixed,
    TextSuffixed,
    TextChanged,
    NumberPrefixed,
    NumberSuffixed,
    NumberChanged,
    StatusChanged,
    ResponsePrefixed,
    ResponseSuffixed,
    ResponseChanged,
    CaseChanged,
    WordAdded,
    Reordered,
    OtherAdded,
}

impl MutationKind {
    pub const ALL: [MutationKind; 22] = [
        MutationKind::Hidden,
        MutationKind::Removed,
        MutationKind::OneMore,
        MutationKind::OneFewer,
        MutationKind::CheckedFlipped,
        MutationKind::EnabledFlipped,
        MutationKind::TitleChanged,
        MutationKind::UrlChanged,
        MutationKind::TextPrefixed,
        MutationKind::TextSuffixed,
        MutationKind::TextChanged,
        MutationKind::NumberPrefixed,
        MutationKind::NumberSuffixed,
        MutationKind::NumberChanged,
        MutationKind::StatusChanged,
        MutationKind::ResponsePrefixed,
        MutationKind::ResponseSuffixed,
        MutationKind::ResponseChanged,
        MutationKind::CaseChanged,
        MutationKind::WordAdded,
        MutationKind::Reordered,
        MutationKind::OtherAdded,
    ];

    /// The kind's name in records and messages (`text-prefixed`).
    pub fn as_str(self) -> &'static str {
        match self {
            MutationKind::Hidden => "hidden",
            MutationKind::Removed => "removed",
            MutationKind::OneMore => "one-more",
            MutationKind::OneFewer => "one-fewer",
            MutationKind::CheckedFlipped => "checked-flipped",
            MutationKind::EnabledFlipped => "enabled-flipped",
            MutationKind::TitleChanged => "title-changed",
            MutationKind::UrlChanged => "url-changed",
            MutationKind::TextPrefixed => "text-prefixed",
            MutationKind::TextSuffixed => "text-suffixed",
            MutationKind::TextChanged => "text-changed",
            MutationKind::NumberPrefixed => "number-prefixed",
            MutationKind::NumberSuffixed => "number-suffixed",
            MutationKind::NumberChanged => "number-changed",
            MutationKind::StatusChanged => "status-changed",
            MutationKind::ResponsePrefixed => "response-prefixed",
            MutationKind::ResponseSuffixed => "response-suffixed",
            MutationKind::ResponseChanged => "response-changed",
            MutationKind::CaseChanged => "case-changed",
            MutationKind::WordAdded => "word-added",
            MutationKind::Reordered => "reordered",
            MutationKind::OtherAdded => "other-added",
        }
    }

    fn named(name: &str) -> Option<MutationKind> {
        MutationKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }
}

impl fmt::Display for MutationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a check could not be proven either way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unproven {
    /// The code acts on the page with the named call (`click`); running it again would change
    /// the app.
    Acts(String),
    /// The code sends a request with this HTTP method (`POST`), which may change the app.
    Sends(String),
    /// No mutation derived from what the code reads and the sentence claims applies to the page.
    NoMutation,
    /// The code reads only other pages than the test's own.
    OtherPage,
    /// The code, which passed once, failed when it ran again on the same page (before any
    /// mutation): what it reads does not hold still.
    NotRepeatable(String),
    /// The proof could not finish (`prettyplay audit` only: code whose proof breaks is never
    /// cached).
    Unfinished(String),
    /// The app undid the proof's change (of this kind) before the check read it, twice: a page
    /// that renders from state on a timer. The check could not be tried under it.
    Undone(String),
    /// No read of the check reaches this quoted text of the sentence, which is on the page:
    /// no change of it could be tried.
    Unread(String),
}

/// The clauses of [`Unproven`]'s text that hold a value, as format 4 wrote them: the text
/// before the value and after it.
const ACTS: (&str, &str) = ("the step acts on the page (", ")");
const SENDS: (&str, &str) = ("the step sends a ", " request");
const NOT_REPEATABLE: (&str, &str) = ("it did not pass a second time on the same page (", ")");
const UNFINISHED: (&str, &str) = ("the proof could not finish (", ")");
const UNDONE: (&str, &str) = ("the app undid the change before the check read it (", ")");
const UNREAD: (&str, &str) = (
    "no change the proof can make reaches the quoted text (",
    ")",
);
const NO_MUTATION: &str = "no mutation contradicts what it checks";
const OTHER_PAGE: &str = "it reads only another page";

impl fmt::Display for Unproven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (clause, value) = match self {
            Unproven::Acts(call) => (ACTS, call),
            Unproven::Sends(method) => (SENDS, method),
            Unproven::NotRepeatable(why) => (NOT_REPEATABLE, why),
            Unproven::Unfinished(why) => (UNFINISHED, why),
            Unproven::Undone(kind) => (UNDONE, kind),
            Unproven::Unread(text) => (UNREAD, text),
            Unproven::NoMutation => return f.write_str(NO_MUTATION),
            Unproven::OtherPage => return f.write_str(OTHER_PAGE),
        };
        write!(f, "{}{value}{}", clause.0, clause.1)
    }
}

impl Unproven {
    /// The reason format 4 wrote as text.
    fn from_text(text: &str) -> Option<Unproven> {
        let value = |(before, after): (&str, &str)| {
            let inner = text.strip_prefix(before)?.strip_suffix(after)?;
            (!inner.is_empty()).then(|| inner.to_owned())
        };
        match text {
            NO_MUTATION => Some(Unproven::NoMutation),
            OTHER_PAGE => Some(Unproven::OtherPage),
            _ => value(ACTS)
                .map(Unproven::Acts)
                .or_else(|| value(SENDS).map(Unproven::Sends))
                .or_else(|| value(NOT_REPEATABLE).map(Unproven::NotRepeatable))
                .or_else(|| value(UNFINISHED).map(Unproven::Unfinished))
                .or_else(|| value(UNDONE).map(Unproven::Undone))
                .or_else(|| value(UNREAD).map(Unproven::Unread)),
        }
    }
}

/// How a cache entry's checks were proven when the engine wrote its code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProofRecord {
    /// The check failed under these kinds of mutation (at least one), in the order tried.
    Proven(Vec<MutationKind>),
    /// No mutation could be tried, for this reason.
    None(Unproven),
}

/// The starts of a record's text: `proven: hidden, removed`, `none: <why>`.
const PROVEN: &str = "proven:";
const NONE: &str = "none:";

impl fmt::Display for ProofRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofRecord::Proven(kinds) => {
                f.write_str(PROVEN)?;
                for (at, kind) in kinds.iter().enumerate() {
                    f.write_str(if at == 0 { " " } else { ", " })?;
                    f.write_str(kind.as_str())?;
                }
                Ok(())
            }
            ProofRecord::None(why) => write!(f, "{NONE} {why}"),
        }
    }
}

impl ProofRecord {
    /// The mutation kinds the check failed under; none for an unproven record.
    pub fn kinds(&self) -> &[MutationKind] {
        match self {
            ProofRecord::Proven(kinds) => kinds,
            ProofRecord::None(_) => &[],
        }
    }

    /// The record as format 4 wrote it, its [`Display`](fmt::Display) text; `None` for any
    /// other text.
    pub(crate) fn from_text(text: &str) -> Option<ProofRecord> {
        if let Some(kinds) = text.strip_prefix(PROVEN) {
            let kinds: Option<Vec<MutationKind>> = kinds
                .split(',')
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(MutationKind::named)
                .collect();
            return kinds
                .filter(|kinds| !kinds.is_empty())
                .map(ProofRecord::Proven);
        }
        let why = text.strip_prefix(NONE)?.trim_start();
        Unproven::from_text(why).map(ProofRecord::None)
    }

    /// The kinds of `cached` a `healed` record lacks: a heal must fail under every kind of
    /// mutation the cached check failed under.
    pub fn lost(cached: Option<&ProofRecord>, healed: Option<&ProofRecord>) -> Vec<MutationKind> {
        let after = healed.map_or(&[][..], ProofRecord::kinds);
        cached
            .map_or(&[][..], ProofRecord::kinds)
            .iter()
            .copied()
            .filter(|kind| !after.contains(kind))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_record() -> Vec<ProofRecord> {
        let mut records = vec![
            ProofRecord::Proven(vec![MutationKind::Hidden]),
            ProofRecord::Proven(MutationKind::ALL.to_vec()),
        ];
        for why in [
            Unproven::Acts("click".into()),
            Unproven::Sends("POST".into()),
            Unproven::NoMutation,
            Unproven::OtherPage,
            Unproven::NotRepeatable("expect(locator).toBeVisible() failed (twice)".into()),
            Unproven::Unfinished("the page closed".into()),
            Unproven::Undone("text-prefixed".into()),
            Unproven::Unread("completed".into()),
        ] {
            records.push(ProofRecord::None(why));
        }
        records
    }

    #[test]
    fn kinds_are_named_as_serde_names_them() {
        for kind in MutationKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
    }

    #[test]
    fn the_text_reads_as_format_4_wrote_it() {
        assert_eq!(
            ProofRecord::Proven(vec![MutationKind::Hidden, MutationKind::TextPrefixed]).to_string(),
            "proven: hidden, text-prefixed"
        );
        let shown: Vec<String> = every_record()[2..].iter().map(|r| r.to_string()).collect();
        assert_eq!(
            shown,
            [
                "none: the step acts on the page (click)",
                "none: the step sends a POST request",
                "none: no mutation contradicts what it checks",
                "none: it reads only another page",
                "none: it did not pass a second time on the same page (expect(locator).toBeVisible() failed (twice))",
                "none: the proof could not finish (the page closed)",
                "none: the app undid the change before the check read it (text-prefixed)",
                "none: no change the proof can make reaches the quoted text (completed)",
            ]
        );
    }

    #[test]
    fn every_text_format_4_wrote_is_read_back() {
        for record in every_record() {
            assert_eq!(
                ProofRecord::from_text(&record.to_string()),
                Some(record.clone()),
                "{record}"
            );
        }
        for other in [
            "",
            "proven:",
            "proven: , ",
            "proven: hidden, glowing",
            "none: ",
            "none: it was a sunny day",
            "vacuous: it reads nothing from the page",
            "the step acts on the page (click)",
        ] {
            assert_eq!(ProofRecord::from_text(other), None, "{other:?}");
        }
    }

    #[test]
    fn recorded_kinds_are_read_back() {
        let kinds = |text: &str| ProofRecord::from_text(text).map(|r| r.kinds().to_vec());
        assert_eq!(
            kinds("proven: hidden, text-prefixed"),
            Some(vec![MutationKind::Hidden, MutationKind::TextPrefixed])
        );
        assert_eq!(
            kinds("none: the step acts on the page (frame.click)"),
            Some(vec![])
        );
    }

    #[test]
    fn a_heal_loses_the_kinds_its_record_lacks() {
        let proven = |kinds: &[MutationKind]| ProofRecord::Proven(kinds.to_vec());
        let cached = proven(&[MutationKind::Hidden, MutationKind::TextPrefixed]);
        assert_eq!(
            ProofRecord::lost(Some(&cached), Some(&proven(&[MutationKind::Hidden]))),
            [MutationKind::TextPrefixed]
        );
        let acts = ProofRecord::None(Unproven::Acts("click".into()));
        assert_eq!(
            ProofRecord::lost(Some(&cached), Some(&acts)),
            [MutationKind::Hidden, MutationKind::TextPrefixed]
        );
        assert!(ProofRecord::lost(Some(&acts), None).is_empty());
        assert!(ProofRecord::lost(None, Some(&cached)).is_empty());
    }
}
