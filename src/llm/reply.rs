//! Reading a model's raw reply: [`extract_code`] for generation, [`parse_classification`] for
//! classification. Both are total: any text gives a result, never a panic.

use super::{Category, Classification, VerdictSource};

/// Info strings of a fenced block taken for step code, compared case-insensitively.
const JS_LANGUAGES: &[&str] = &[
    "js",
    "javascript",
    "ts",
    "typescript",
    "jsx",
    "tsx",
    "mjs",
    "cjs",
    "node",
];

/// Spellings of each category at the start of a verdict, compared case-insensitively; longer
/// spellings first.
const CATEGORY_SPELLINGS: &[(&str, Category)] = &[
    ("product_defect", Category::ProductDefect),
    ("product defect", Category::ProductDefect),
    ("product-defect", Category::ProductDefect),
    ("productdefect", Category::ProductDefect),
    ("incurable", Category::Incurable),
    ("rot", Category::Rot),
];

/// Characters of the reply an unparseable verdict's error quotes at most.
const QUOTE: usize = 500;

/// The step code in a reply: the first fenced block tagged `js`, `javascript`, `ts`, `typescript`
/// (or a close relative) or not tagged at all; else the first fenced block of any tag; else the
/// whole reply, trimmed. A block whose closing fence is missing (a reply cut by `max_tokens`) runs
/// to the end of the reply.
pub(crate) fn extract_code(reply: &str) -> String {
    let blocks = fenced_blocks(reply);
    let is_js =
        |tag: &str| tag.is_empty() || JS_LANGUAGES.iter().any(|l| l.eq_ignore_ascii_case(tag));
    blocks
        .iter()
        .find(|(tag, _)| is_js(tag))
        .or_else(|| blocks.first())
        .map_or_else(|| reply.trim().to_owned(), |(_, body)| body.clone())
}

/// Every fenced block (```` ``` ```` or `~~~`, three or more) of `text`, as (first word of the
/// info string, body without surrounding blank lines).
fn fenced_blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some((fence, info)) = opening_fence(line) else {
            continue;
        };
        let tag = info.split_whitespace().next().unwrap_or("").to_owned();
        let mut body = Vec::new();
        for line in lines.by_ref() {
            if closes(line, fence) {
                break;
            }
            body.push(line);
        }
        let body = body.join("\n");
        let body = body.trim_end();
        let start = body.len() - body.trim_start_matches(['\n', '\r']).len();
        blocks.push((tag, body[start..].to_owned()));
    }
    blocks
}

/// A fence opening `line`: the fence (its character repeated 3+ times) and the info string.
fn opening_fence(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let marker = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let count = line.len() - line.trim_start_matches(marker).len();
    if count < 3 {
        return None;
    }
    let (fence, info) = line.split_at(count);
    // A backtick fence's info string cannot hold a backtick (that is inline code).
    if marker == '`' && info.contains('`') {
        return None;
    }
    Some((fence, info.trim()))
}

/// Whether `line` closes a block opened by `fence`: the same character, at least as many times,
/// nothing else.
fn closes(line: &str, fence: &str) -> bool {
    let line = line.trim();
    let Some(marker) = fence.chars().next() else {
        return false;
    };
    line.len() >= fence.len() && line.chars().all(|c| c == marker)
}

/// A verdict in a reply. The expected form is one line, `category | explanation |
/// recommendation`; leniently also: markdown decoration (`**rot**`, a leading `-` or `#`), a
/// leading `category:` label, the categories spelled `product defect`, `product-defect`,
/// `ProductDefect` in any case, `explanation:` / `recommendation:` labelled lines, or just the
/// rest of the text after the category (then the explanation, with an empty recommendation).
/// When the reply does not start with a category, its first line in the one-line form is taken.
///
/// `Err` holds the reply (cut at 500 characters) when no category can be found.
pub(crate) fn parse_classification(reply: &str) -> Result<Classification, Unparsed> {
    let fenced = reply
        .trim_start()
        .starts_with(['`', '~'])
        .then(|| extract_code(reply));
    let text = fenced.as_deref().unwrap_or(reply);
    if let Some(verdict) = parse_verdict(text) {
        return Ok(verdict);
    }
    text.lines()
        .filter_map(|line| parse_verdict(line).filter(|_| line.contains('|')))
        .next()
        .ok_or_else(|| Unparsed::of(reply))
}

/// A verdict for a decision that writes (a heal): the reply's first token must be the category,
/// `rot`, `product_defect` or `incurable` in any case, optionally in quotes or backticks; the
/// rest is read like [`parse_classification`] reads it. Any other shape is unparseable, so
/// prose that merely mentions a category never heals.
pub(crate) fn parse_classification_strict(reply: &str) -> Result<Classification, Unparsed> {
    let unparseable = || Unparsed::of(reply);
    let text = reply.trim_start().trim_start_matches(['"', '\'', '`']);
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let category = match text[..end].to_ascii_lowercase().as_str() {
        "rot" => Category::Rot,
        "product_defect" => Category::ProductDefect,
        "incurable" => Category::Incurable,
        _ => return Err(unparseable()),
    };
    let rest = text[end..].trim_start_matches(['"', '\'', '`']);
    match parse_verdict(&format!("{}{rest}", category.as_str())) {
        Some(verdict) if verdict.category == category => Ok(verdict),
        _ => Err(unparseable()),
    }
}

/// A reply in which no verdict was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reply}")]
pub(crate) struct Unparsed {
    /// The reply, trimmed and cut at 500 characters.
    pub(crate) reply: String,
}

impl Unparsed {
    fn of(reply: &str) -> Unparsed {
        Unparsed {
            reply: cut(reply.trim()),
        }
    }
}

fn parse_verdict(text: &str) -> Option<Classification> {
    let text = strip_label(strip_decoration(text), "category").unwrap_or(text);
    let (category, rest) = take_category(strip_decoration(text))?;
    let rest = rest.trim_start_matches(|c: char| DECORATION.contains(&c) && c != '|' && c != '\n');
    let (explanation, recommendation) = match rest.strip_prefix('|') {
        Some(rest) => match rest.split_once('|') {
            Some((explanation, recommendation)) => (clean(explanation), clean(recommendation)),
            None => (clean(rest), String::new()),
        },
        None => labelled(rest),
    };
    Some(Classification {
        category,
        explanation,
        recommendation,
        source: VerdictSource::Llm,
    })
}

/// Markdown and punctuation around a verdict's parts.
const DECORATION: &[char] = &[
    '*', '_', '#', '>', '-', '`', '"', '\'', '|', ':', '=', '.', ',', ';', '—', '–', '(', ')', '[',
    ']', ' ', '\t', '\r', '\n',
];

fn strip_decoration(text: &str) -> &str {
    text.trim_start_matches(DECORATION)
}

/// The text after a `label` and its `:` or `=` (decoration allowed around both), if `text`
/// starts with it.
fn strip_label<'a>(text: &'a str, label: &str) -> Option<&'a str> {
    let head = text.as_bytes().get(..label.len())?;
    if !head.eq_ignore_ascii_case(label.as_bytes()) {
        return None;
    }
    // The label is ASCII, so its length is a char boundary.
    let rest = text[label.len()..].trim_start_matches(['*', '_', '`', ' ', '\t']);
    rest.strip_prefix([':', '='])
}

/// The category a text starts with, and what follows it.
fn take_category(text: &str) -> Option<(Category, &str)> {
    CATEGORY_SPELLINGS.iter().find_map(|(spelling, category)| {
        let head = text.as_bytes().get(..spelling.len())?;
        if !head.eq_ignore_ascii_case(spelling.as_bytes()) {
            return None;
        }
        // The spelling is ASCII, so its length is a char boundary.
        let rest = &text[spelling.len()..];
        let at_boundary = rest
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric() && c != '_');
        at_boundary.then_some((*category, rest))
    })
}

/// Explanation and recommendation from free text: lines labelled `explanation:` or
/// `recommendation:` go to that part (with the lines after them); anything else to the
/// explanation.
fn labelled(text: &str) -> (String, String) {
    let mut explanation = Vec::new();
    let mut recommendation = Vec::new();
    let mut into_recommendation = false;
    for line in text.lines() {
        let stripped = strip_decoration(line);
        let line = if let Some(rest) = strip_label(stripped, "explanation") {
            into_recommendation = false;
            rest
        } else if let Some(rest) = strip_label(stripped, "recommendation") {
            into_recommendation = true;
            rest
        } else {
            line
        };
        if into_recommendation {
            recommendation.push(line);
        } else {
            explanation.push(line);
        }
    }
    (
        clean(&explanation.join("\n")),
        clean(&recommendation.join("\n")),
    )
}

/// Whitespace collapsed to single spaces, decoration trimmed from both ends.
///
/// Quotes are trimmed only when one pair wraps the whole text: a reason that ends in a quoted
/// name (`named "New Todo"`) keeps its closing quote.
fn clean(text: &str) -> String {
    let ends: &[char] = &['*', '_', '|', ' ', '\t', '\r', '\n'];
    let mut text = text.trim_matches(ends);
    while let Some(inner) = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .filter(|inner| !inner.contains('"'))
    {
        text = inner.trim_matches(ends);
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut at [`QUOTE`] characters, with `…` when cut.
fn cut(text: &str) -> String {
    if text.chars().count() > QUOTE {
        let mut out: String = text.chars().take(QUOTE - 1).collect();
        out.push('…');
        out
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(category: Category, explanation: &str, recommendation: &str) -> Classification {
        Classification {
            category,
            explanation: explanation.into(),
            recommendation: recommendation.into(),
            source: VerdictSource::Llm,
        }
    }

    #[test]
    fn a_reason_that_ends_in_a_quoted_name_keeps_its_closing_quote() {
        let reply = "rot | the field is named \"New Todo Input\" | find it by \"New todo\"";
        let verdict = parse_verdict(reply).expect("a verdict");
        assert_eq!(verdict.explanation, "the field is named \"New Todo Input\"");
        assert_eq!(verdict.recommendation, "find it by \"New todo\"");
    }

    #[test]
    fn quotes_that_wrap_a_whole_reason_are_trimmed_and_others_kept() {
        assert_eq!(clean("\"the label changed\""), "the label changed");
        assert_eq!(clean("**\" the label changed \"**"), "the label changed");
        assert_eq!(clean("\"a\" became \"b\""), "\"a\" became \"b\"");
        assert_eq!(clean("\"Save\" moved"), "\"Save\" moved");
    }

    #[test]
    fn code_from_a_js_block() {
        let reply = "Here you go:\n```js\nawait page.goto('/');\n```\nDone.";
        assert_eq!(extract_code(reply), "await page.goto('/');");
    }

    #[test]
    fn code_from_every_js_like_tag_and_an_untagged_block() {
        for tag in [
            "js",
            "JavaScript",
            "ts",
            "typescript",
            "",
            "tsx",
            "js title=step",
        ] {
            let reply = format!("```{tag}\nawait a();\nawait b();\n```");
            assert_eq!(extract_code(&reply), "await a();\nawait b();", "{tag:?}");
        }
    }

    #[test]
    fn code_prefers_a_js_block_over_an_earlier_other_one() {
        let reply =
            "```text\nnot code\n```\n\n```javascript\nawait c();\n```\n```js\nawait d();\n```";
        assert_eq!(extract_code(reply), "await c();");
        assert_eq!(extract_code("```python\nprint(1)\n```"), "print(1)");
    }

    #[test]
    fn code_without_fences_is_the_whole_reply_trimmed() {
        assert_eq!(
            extract_code("\n  await page.click('a');\n\n"),
            "await page.click('a');"
        );
        assert_eq!(extract_code(""), "");
        assert_eq!(extract_code("use `page.goto` here"), "use `page.goto` here");
    }

    #[test]
    fn code_block_edge_cases() {
        // Unterminated: to the end.
        assert_eq!(
            extract_code("```js\nawait a();\nawait b("),
            "await a();\nawait b("
        );
        // A longer fence holds a shorter one.
        assert_eq!(
            extract_code("````js\nconst s = `\n```\n`;\n````"),
            "const s = `\n```\n`;"
        );
        // Tilde fences, indented fences, blank lines around the body, CRLF.
        assert_eq!(extract_code("~~~js\nx();\n~~~"), "x();");
        assert_eq!(extract_code("  ```js\n  x();\n  ```"), "  x();");
        assert_eq!(extract_code("```js\n\n\nx();\n\n```"), "x();");
        assert_eq!(extract_code("```js\r\nx();\r\n```\r\n"), "x();");
        // An empty block is empty code.
        assert_eq!(extract_code("```js\n```"), "");
        // Inline code on one line is not a fence.
        assert_eq!(extract_code("```x()``` is it"), "```x()``` is it");
    }

    /// Asserts that each reply parses to its (category, explanation, recommendation).
    fn assert_verdicts(cases: &[(&str, Category, &str, &str)]) {
        for &(reply, category, explanation, recommendation) in cases {
            assert_eq!(
                parse_classification(reply),
                Ok(verdict(category, explanation, recommendation)),
                "{reply:?}"
            );
        }
    }

    #[test]
    fn verdict_in_the_expected_form() {
        assert_verdicts(&[
            (
                "rot | the Add button is now labelled Create | regenerate the step",
                Category::Rot,
                "the Add button is now labelled Create",
                "regenerate the step",
            ),
            (
                "product_defect|total shows 0|fix the cart total\n",
                Category::ProductDefect,
                "total shows 0",
                "fix the cart total",
            ),
            (
                "  incurable | ambiguous | reword the step  ",
                Category::Incurable,
                "ambiguous",
                "reword the step",
            ),
        ]);
    }

    #[test]
    fn verdict_category_spellings() {
        for spelling in [
            "product_defect",
            "product defect",
            "Product Defect",
            "product-defect",
            "ProductDefect",
            "PRODUCT_DEFECT",
            "**product_defect**",
            "`product_defect`",
            "Category: product defect",
            "**Category:** ProductDefect",
            "category = product-defect",
            "- product_defect",
            "# Product defect",
            "| product_defect",
            "\"product_defect\"",
        ] {
            let reply = format!("{spelling} | e | r");
            assert_eq!(
                parse_classification(&reply),
                Ok(verdict(Category::ProductDefect, "e", "r")),
                "{spelling:?}"
            );
        }
        assert_eq!(
            parse_classification("ROT").map(|v| v.category),
            Ok(Category::Rot)
        );
        assert_eq!(
            parse_classification("Incurable.").map(|v| v.category),
            Ok(Category::Incurable)
        );
    }

    #[test]
    fn verdict_lenient_forms() {
        assert_verdicts(&[
            (
                "rot: the button moved to the header",
                Category::Rot,
                "the button moved to the header",
                "",
            ),
            (
                "Rot — the button\nmoved.",
                Category::Rot,
                "the button moved.",
                "",
            ),
            (
                "**Category:** rot\n**Explanation:** the label changed\n\
                 **Recommendation:** regenerate\nthe step",
                Category::Rot,
                "the label changed",
                "regenerate the step",
            ),
            (
                "incurable | only an explanation",
                Category::Incurable,
                "only an explanation",
                "",
            ),
            ("| rot | a | b |", Category::Rot, "a", "b"),
            ("rot | a | b | c", Category::Rot, "a", "b | c"),
            ("```\nrot | a | b\n```", Category::Rot, "a", "b"),
            (
                "Here is my verdict:\n\nproduct defect | total is 0 | fix it",
                Category::ProductDefect,
                "total is 0",
                "fix it",
            ),
        ]);
    }

    #[test]
    fn verdict_unparseable_returns_the_reply() {
        for reply in [
            "",
            "   ",
            "I think the UI changed",
            "rotten | a | b",
            "rotation",
            "product | a | b",
            "defect | a | b",
            "category: none",
            "The category is rot.",
        ] {
            assert_eq!(
                parse_classification(reply).map_err(|e| e.reply),
                Err(reply.trim().to_owned()),
                "{reply:?}"
            );
        }
    }

    #[test]
    fn verdict_error_is_cut_at_500_characters() {
        let long = "é".repeat(2000);
        let err = parse_classification(&long).expect_err("unparseable").reply;
        assert_eq!(err.chars().count(), 500);
        assert!(err.ends_with('…'));
        let exactly = "x".repeat(500);
        assert_eq!(
            parse_classification(&exactly).map_err(|e| e.reply),
            Err(exactly.clone())
        );
    }

    #[test]
    fn arbitrary_text_never_panics() {
        // A small deterministic generator over characters that exercise the parsers' edges:
        // fences, pipes, multi-byte characters, labels, category prefixes.
        let atoms = [
            "`",
            "```",
            "~~~",
            "|",
            "*",
            "**",
            ":",
            "=",
            "\n",
            "\r\n",
            " ",
            "é",
            "—",
            "🦀",
            "r",
            "ot",
            "rot",
            "product",
            " ",
            "_",
            "-",
            "defect",
            "category",
            "explanation:",
            "Recommendation",
            "js",
            "\t",
            "#",
            ">",
            "incurable",
            "\u{0}",
            "ä",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            let mut text = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 24) as usize;
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(atoms[(seed % atoms.len() as u64) as usize]);
            }
            let _ = extract_code(&text);
            if let Err(unparsed) = parse_classification(&text) {
                assert!(unparsed.reply.chars().count() <= QUOTE);
            }
        }
    }

    #[test]
    fn a_strict_verdict_starts_with_its_category() {
        for reply in [
            "rot | the button was renamed | nothing",
            "ROT: the button was renamed",
            "`rot` | the button was renamed",
            "\"rot\" | the button was renamed",
        ] {
            let parsed = parse_classification_strict(reply).unwrap();
            assert_eq!(parsed.category, Category::Rot, "{reply}");
            assert!(
                parsed.explanation.contains("renamed"),
                "{reply}: {parsed:?}"
            );
        }
        assert_eq!(
            parse_classification_strict("product_defect | off by one | fix it")
                .unwrap()
                .category,
            Category::ProductDefect
        );
        for reply in [
            "I think this is rot | the button was renamed",
            "**rot** | bold",
            "product defect | spelled loosely",
            "rotten | not a category",
            "",
            "The verdict: rot",
        ] {
            assert!(parse_classification_strict(reply).is_err(), "{reply:?}");
        }
    }
}
