//! Every word of a sentence that the test's memory (`discourse.rs`) or a plan reader
//! (`plan_readers.rs`) read is accounted for, as `accounting.rs` does for the registry's
//! intents. A word is explained when it is a documented filler or plain word of the grammar, a
//! frame word of the reader's own pattern, a word of a kind of meaning that pattern reads
//! ([`Reads`]), or a word the reading hands on: a part the shapes read as a sentence of its
//! own (whose words their accounting then checks), or a name or value an element step uses.
//! Any other word declines the reading, naming it, because its code would do less than the
//! sentence says (`the todo appears in the list twice` checked once, `after reload` with no
//! reload).
//!
//! Main function: [`accounted`].

use crate::writer::builtin::discourse::{Discourse, Part};
use crate::writer::builtin::element_step::{Check, ElementStep, Op, Subject};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::phrases::ordinal;
use crate::writer::builtin::tokens::{Tok, normalize, tokenize};
use crate::writer::builtin::vocabulary::{FILLERS, Meaning, PLAIN, Reads, meaning};
use crate::writer::words;

/// The words the test's memory reads besides the fillers and plain words: the frame words of
/// its noun phrases and predicates (`discourse.rs`), and the kinds of meaning they read (`it`,
/// `both`, `all three`, `the other one`, `is not completed`, `and`).
const MEMORY: Reads = Reads {
    words: &[
        "added",
        "complete",
        "completed",
        "done",
        "active",
        "listed",
        "present",
        "new",
        "focused",
        "focus",
        "textbox",
        // `is not completed`, the memory's other way of saying `is active`.
        "not",
    ],
    meanings: &[
        Meaning::Reference,
        Meaning::Number,
        Meaning::Position,
        Meaning::Negation,
        Meaning::Sequence,
        Meaning::Time,
    ],
};

/// What the test's memory reads of a sentence, and the kinds of meaning the earlier steps of
/// `discourse` carry for it: once a step reloaded the page, a claim said to hold `after
/// reload` holds after one.
pub(crate) fn memory_reads(discourse: &Discourse) -> (&'static Reads, &'static [Meaning]) {
    if discourse.reloaded() {
        (&MEMORY, &[Meaning::Time])
    } else {
        (&MEMORY, &[])
    }
}

/// The words, quoted literals and kinds of meaning a reading's parts carry on to the code.
#[derive(Default)]
struct HandedOn {
    /// Lowercased words of the parts' sentences, names and values.
    words: Vec<String>,
    /// The quoted literals of the parts' sentences, and the names and values their steps use,
    /// as written.
    literals: Vec<String>,
    /// The kinds of meaning the parts carry: the words of their sentences say them, and their
    /// steps carry them by what they do (a negated check, a reload, the nth item).
    kinds: Vec<Meaning>,
    /// The items each part names, one list per part.
    items: Vec<Vec<String>>,
}

impl HandedOn {
    fn of(parts: &[Part], columns: &[String]) -> Self {
        let mut handed = HandedOn::default();
        for part in parts {
            handed.items.push(Vec::new());
            match part {
                Part::Sentence(said) | Part::Revealed(said) => {
                    for tok in normalize(tokenize(said, columns)) {
                        match tok {
                            Tok::Word(word, _) => {
                                handed.kinds.extend(kinds(&word));
                                handed.words.push(word);
                            }
                            Tok::Lit(text) => {
                                handed.text(&text);
                                handed.named(&text);
                            }
                        }
                    }
                }
                Part::Step(step) => handed.step(step),
            }
        }
        // Two parts are a sequence; items named are a number of them (`both`, `one of three`).
        if parts.len() > 1 {
            handed.kinds.push(Meaning::Sequence);
        }
        if handed.items.iter().any(|part| !part.is_empty()) {
            handed.kinds.push(Meaning::Number);
        }
        handed
    }

    /// A name or a value: the literal as written, and its words.
    fn text(&mut self, text: &str) {
        self.literals.push(text.to_owned());
        self.words
            .extend(text.split_whitespace().map(str::to_lowercase));
        self.words
            .extend(words(text).into_iter().map(|w| w.text.to_lowercase()));
    }

    /// An item the current part names.
    fn named(&mut self, item: &str) {
        if let Some(part) = self.items.last_mut() {
            part.push(item.to_owned());
        }
    }

    fn step(&mut self, step: &ElementStep) {
        self.subject(&step.subject);
        match &step.op {
            Op::Fill(value) => self.text(value),
            Op::Press(key) => self.words.push(key.to_lowercase()),
            Op::Reload => self.kinds.push(Meaning::Time),
            Op::Valid(valid) => {
                if !valid {
                    self.kinds.push(Meaning::Negation);
                }
            }
            Op::Expect { check, not } => {
                if *not {
                    self.kinds.push(Meaning::Negation);
                }
                match check {
                    Check::Value(value) | Check::ExactText(value) | Check::UrlEndsWith(value) => {
                        self.text(value);
                    }
                    // No element found is a claim that something is not there.
                    Check::Count(0) => self.kinds.push(Meaning::Negation),
                    Check::Count(_) => self.kinds.push(Meaning::Number),
                    // A class or an attribute comes from the page's structure, not the
                    // sentence.
                    Check::Visible
                    | Check::Focused
                    | Check::Checked
                    | Check::Class(_)
                    | Check::Attribute { .. } => {}
                }
            }
            Op::Click | Op::Check | Op::Uncheck | Op::Clear | Op::Blur => {}
        }
    }

    fn subject(&mut self, subject: &Subject) {
        match subject {
            Subject::Item(text) | Subject::ItemText(text) => {
                self.text(text);
                self.named(text);
            }
            Subject::CheckboxLabelled(text) => self.text(text),
            Subject::Role { name, .. } => self.text(name),
            Subject::Checkbox(inner) => self.subject(inner),
            Subject::NthItem { list, .. } => {
                self.kinds.push(Meaning::Position);
                self.subject(list);
            }
            // The field just used and the item being edited are what the sentence refers to;
            // their locators come from the page or an earlier step's code, not the sentence.
            Subject::Editor | Subject::Located(_) => self.kinds.push(Meaning::Reference),
            Subject::Page | Subject::Items => {}
        }
    }

    /// Marks as carried the reference a part's item resolves: an item no quote of the
    /// sentence names (`the todo`, `the first todo`) or one that more than one part names
    /// (`add 'a' and mark it`).
    fn references(&mut self, quoted: &[&String]) {
        let mut seen: Vec<&String> = Vec::new();
        let mut again = false;
        for part in &self.items {
            let mut own: Vec<&String> = part.iter().collect();
            own.dedup();
            again |= own.iter().any(|item| seen.contains(item));
            seen.extend(own);
        }
        if again || seen.iter().any(|item| !quoted.contains(item)) {
            self.kinds.push(Meaning::Reference);
            self.kinds.push(Meaning::Position);
        }
    }
}

/// The kinds of meaning `word` may have: `second` is a time and a position.
fn kinds(word: &str) -> Vec<Meaning> {
    let mut out: Vec<Meaning> = meaning(word).into_iter().collect();
    if ordinal(&Tok::Word(word.to_owned(), word.to_owned())).is_some() {
        out.push(Meaning::Position);
    }
    out
}

/// Whether the reading explains `word`: a word it hands on, a filler, a plain word or a frame
/// word of its pattern, or a word of a kind of meaning that its pattern reads and its parts
/// (or the test's `context`) carry.
fn explains(word: &str, reads: &Reads, handed: &HandedOn, context: &[Meaning]) -> bool {
    if handed.words.iter().any(|w| w == word) || reads.words.contains(&word) {
        return true;
    }
    if meaning(word).is_none() {
        return FILLERS.contains(&word) || PLAIN.contains(&word);
    }
    kinds(word).iter().any(|kind| {
        reads.meanings.contains(kind) && (handed.kinds.contains(kind) || context.contains(kind))
    })
}

/// `parts`, the reading of the sentence whose tokens are `toks` by a reader that `reads` the
/// words of its pattern, when the reading explains every word and quoted literal of it; else
/// the decline naming the words it leaves. `context` holds the kinds of meaning the test's
/// earlier steps carry for the sentence (a reload already done carries `after reload`).
pub(crate) fn accounted(
    toks: &[Tok],
    reads: &Reads,
    parts: Vec<Part>,
    columns: &[String],
    context: &[Meaning],
) -> Result<Vec<Part>, Decline> {
    let mut handed = HandedOn::of(&parts, columns);
    let quoted: Vec<&String> = toks
        .iter()
        .filter_map(|tok| match tok {
            Tok::Lit(text) => Some(text),
            Tok::Word(..) => None,
        })
        .collect();
    handed.references(&quoted);
    let left: Vec<String> = toks
        .iter()
        .filter_map(|tok| match tok {
            Tok::Lit(text) if !handed.literals.contains(text) => Some(format!("\"{text}\"")),
            Tok::Word(word, written) if !explains(word, reads, &handed, context) => {
                Some(written.clone())
            }
            _ => None,
        })
        .collect();
    if left.is_empty() {
        return Ok(parts);
    }
    let left: Vec<&str> = left.iter().map(String::as_str).collect();
    Err(Decline::unaccounted(&left))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKBOX: Reads = Reads {
        words: &["checked"],
        meanings: &[Meaning::Negation],
    };

    fn account(sentence: &str, parts: Vec<Part>) -> Result<Vec<Part>, Decline> {
        accounted(
            &normalize(tokenize(sentence, &[])),
            &CHECKBOX,
            parts,
            &[],
            &[],
        )
    }

    fn checked() -> Vec<Part> {
        vec![Part::Step(ElementStep::claim(
            Subject::item_checkbox("a"),
            Check::Checked,
            true,
        ))]
    }

    /// The frame words, the kinds of meaning the pattern reads and the fillers are explained;
    /// a word of another kind of meaning is named.
    #[test]
    fn a_word_the_reader_does_not_read_is_named() {
        assert!(account("the checkbox is not checked", checked()).is_ok());
        for (sentence, word) in [
            ("the checkbox is not checked twice", "twice"),
            ("the checkbox is not checked after reload", "after reload"),
            ("the checkbox is not checked in the first row", "first"),
            ("only the checkbox is not checked", "only"),
            ("the checkbox is not checked within the form", "within"),
            ("the checkbox is not checked for them", "them"),
            ("the checkbox is not checked happily", "happily"),
        ] {
            assert_eq!(
                account(sentence, checked()),
                Err(Decline::unaccounted(&[word])),
                "{sentence}"
            );
        }
    }

    /// A quoted literal is explained only when a part uses it, and a part's sentence explains
    /// the words it hands on to the shapes.
    #[test]
    fn a_literal_or_a_word_is_explained_by_the_part_that_uses_it() {
        assert_eq!(
            account("the checkbox of 'b' is not checked", checked()),
            Err(Decline::unaccounted(&["\"b\""]))
        );
        assert!(account("the checkbox of 'a' is not checked", checked()).is_ok());
        let handed = vec![Part::Sentence("\"a\" appears in the list twice".to_owned())];
        assert!(account("the checkbox of 'a' is checked twice", handed).is_ok());
    }
}
