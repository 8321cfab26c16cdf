//! Reading step sentences: the one tokenizer sentences are read with ([`tokenize`] into
//! [`Tok`]ens for the built-in grammar, and [`words`] for anything that compares words or
//! numbers: the mutation proof's claims, the evidence's near misses), the quoted literals and the
//! placeholders. Both writers and the engine's decisions read sentences through it.
//!
//! Main type: [`Tok`]; main functions: [`tokenize`], [`words`] and [`quoted_literals`].

use std::ops::Range;

/// A token of a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A run of characters between spaces, commas and semicolons, without the punctuation that
    /// ends it (`todo's`, `/api/todos`, `e-mail`): lowercased, and as written. Its [`words`]
    /// are finer.
    Word(String, String),
    /// A quoted literal (without its quotes), a `${NAME}` variable or a `<column>` of the
    /// test's examples table.
    Lit(String),
}

impl Tok {
    pub(crate) fn is(&self, word: &str) -> bool {
        matches!(self, Tok::Word(w, _) if w == word)
    }
}

/// The tokens of `sentence`, whose test's examples table has `columns`. A single quote opens a
/// literal only at the start of a token (`don't` opens nothing).
pub(crate) fn tokenize(sentence: &str, columns: &[String]) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, toks: &mut Vec<Tok>| {
        let w = word.trim_end_matches(['.', ',', ';', '!', '?', ':']);
        if !w.is_empty() {
            toks.push(Tok::Word(w.to_lowercase(), w.to_owned()));
        }
        word.clear();
    };
    let chars: Vec<(usize, char)> = sentence.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let close = match c {
            '"' => Some('"'),
            '“' => Some('”'),
            '\'' if word.is_empty() => Some('\''),
            _ => None,
        };
        if let Some(close) = close {
            let start = at + c.len_utf8();
            if let Some(end) = sentence[start..].find(close) {
                flush(&mut word, &mut toks);
                toks.push(Tok::Lit(sentence[start..start + end].to_owned()));
                let stop = start + end + close.len_utf8();
                while i < chars.len() && chars[i].0 < stop {
                    i += 1;
                }
                continue;
            }
        }
        if c == '$'
            && sentence[at..].starts_with("${")
            && let Some(end) = sentence[at..].find('}')
        {
            flush(&mut word, &mut toks);
            toks.push(Tok::Lit(sentence[at..=at + end].to_owned()));
            let stop = at + end + 1;
            while i < chars.len() && chars[i].0 < stop {
                i += 1;
            }
            continue;
        }
        if c == '<'
            && let Some(end) = sentence[at..].find('>')
            && columns.iter().any(|col| *col == sentence[at + 1..at + end])
        {
            flush(&mut word, &mut toks);
            toks.push(Tok::Lit(sentence[at..=at + end].to_owned()));
            let stop = at + end + 1;
            while i < chars.len() && chars[i].0 < stop {
                i += 1;
            }
            continue;
        }
        if c.is_whitespace() || c == ',' || c == ';' {
            flush(&mut word, &mut toks);
        } else {
            word.push(c);
        }
        i += 1;
    }
    flush(&mut word, &mut toks);
    toks
}

/// A word of a text: letters and digits, with the apostrophes between them (`don't`;
/// `isn’t` is written `isn't`), lowercased, and where it is in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    pub text: String,
    pub span: Range<usize>,
}

/// The words of `text` (a sentence, a quoted literal, a page's text), in order. Anything but a
/// letter, a digit or an apostrophe inside a word separates words.
pub(crate) fn words(text: &str) -> Vec<Word> {
    let is_apostrophe = |c: char| c == '\'' || c == '’';
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if !c.is_alphanumeric() {
            continue;
        }
        let mut end = start + c.len_utf8();
        let mut word: String = c.to_lowercase().collect();
        while let Some(&(at, next)) = chars.peek() {
            if next.is_alphanumeric() {
                word.extend(next.to_lowercase());
                end = at + next.len_utf8();
                chars.next();
                continue;
            }
            // An apostrophe belongs to the word only when a letter or digit follows it.
            let after = text[at + next.len_utf8()..].chars().next();
            if is_apostrophe(next) && after.is_some_and(char::is_alphanumeric) {
                word.push('\'');
                chars.next();
                continue;
            }
            break;
        }
        out.push(Word {
            text: word,
            span: start..end,
        });
    }
    out
}

/// The quoted literals of a sentence: text between `"..."`, `'...'` or `“...”`.
pub(crate) fn quoted_literals(sentence: &str) -> Vec<String> {
    let mut literals = Vec::new();
    let mut chars = sentence.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let close = match c {
            '"' => '"',
            '“' => '”',
            // An apostrophe inside a word ("don't") opens nothing.
            '\'' if !sentence[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric) =>
            {
                '\''
            }
            _ => continue,
        };
        let start = at + c.len_utf8();
        if let Some(end) = sentence[start..].find(close) {
            let literal = &sentence[start..start + end];
            if !literal.is_empty() {
                literals.push(literal.to_owned());
            }
            while chars
                .peek()
                .is_some_and(|&(i, _)| i < start + end + close.len_utf8())
            {
                chars.next();
            }
        }
    }
    literals
}

/// The placeholders of `sentence` as written, in order, each once: its `${NAME}` variables, and
/// its `<column>`s when the test has an examples table with those `columns`.
pub(crate) fn placeholders_of(sentence: &str, columns: &[String]) -> Vec<String> {
    let mut found: Vec<(usize, String)> = crate::scenario::variables(sentence)
        .into_iter()
        .map(|(name, at)| (at, format!("${{{name}}}")))
        .collect();
    found.extend(
        crate::scenario::columns(sentence)
            .into_iter()
            .filter(|(name, _)| columns.iter().any(|c| c == name))
            .map(|(name, at)| (at, format!("<{name}>"))),
    );
    found.sort();
    let mut seen = std::collections::HashSet::new();
    found
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| seen.insert(p.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        words(text).into_iter().map(|w| w.text).collect()
    }

    #[test]
    fn words_are_letters_and_digits_with_the_apostrophes_inside() {
        assert_eq!(
            texts("The list isn’t empty: 3 items, (2) don't-care 'buy milk'"),
            [
                "the", "list", "isn't", "empty", "3", "items", "2", "don't", "care", "buy", "milk"
            ]
        );
        let spans: Vec<_> = words("a  Bc'd!").into_iter().map(|w| w.span).collect();
        assert_eq!(spans, [0..1, 3..7]);
        assert_eq!(texts("3items 日本 x'"), ["3items", "日本", "x"]);
    }

    #[test]
    fn tokens_are_runs_between_spaces_and_quoted_literals() {
        let toks = tokenize(
            "Type \"buy milk\" into the new-todo field, then press Enter.",
            &[],
        );
        let shown: Vec<String> = toks
            .iter()
            .map(|t| match t {
                Tok::Word(lower, _) => lower.clone(),
                Tok::Lit(l) => format!("<{l}>"),
            })
            .collect();
        assert_eq!(
            shown,
            [
                "type",
                "<buy milk>",
                "into",
                "the",
                "new-todo",
                "field",
                "then",
                "press",
                "enter"
            ]
        );
        let columns = ["item".to_owned()];
        assert_eq!(
            tokenize("add <item> and ${NAME} don't", &columns),
            [
                Tok::Word("add".into(), "add".into()),
                Tok::Lit("<item>".into()),
                Tok::Word("and".into(), "and".into()),
                Tok::Lit("${NAME}".into()),
                Tok::Word("don't".into(), "don't".into()),
            ]
        );
    }

    #[test]
    fn quoted_literals_are_read_from_sentences() {
        assert_eq!(
            quoted_literals("add \"buy milk\" and 'walk the dog', don't say “hi”"),
            ["buy milk", "walk the dog", "hi"]
        );
        assert!(quoted_literals("no quotes here").is_empty());
    }
}
