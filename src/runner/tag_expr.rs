//! Tag expressions of `--tag`: `smoke`, `@smoke`, `smoke and not slow`, `(a or b) and not c`.
//! `not` binds tightest, then `and`, then `or`; parentheses group. A tag is a word of anything
//! but spaces and parentheses, with or without its `@`; `@and`, `@or` and `@not` name the tags
//! that are spelled like the operators.
//!
//! Main type: [`TagExpr`], parsed with [`str::parse`]; a bad expression is a [`TagExprError`]
//! that points at the column.

use std::fmt;
use std::str::FromStr;

/// A parsed `--tag` expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TagExpr {
    Tag(String),
    Not(Box<TagExpr>),
    And(Box<TagExpr>, Box<TagExpr>),
    Or(Box<TagExpr>, Box<TagExpr>),
}

impl TagExpr {
    /// Whether a test with `tags` (without `@`) matches.
    pub(crate) fn matches(&self, tags: &[String]) -> bool {
        match self {
            TagExpr::Tag(tag) => tags.iter().any(|t| t == tag),
            TagExpr::Not(inner) => !inner.matches(tags),
            TagExpr::And(a, b) => a.matches(tags) && b.matches(tags),
            TagExpr::Or(a, b) => a.matches(tags) || b.matches(tags),
        }
    }
}

/// A `--tag` expression that does not parse: what was expected, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TagExprError {
    pub expression: String,
    /// 1-based column, in characters, of the offending token (one past the end at the end).
    pub column: usize,
    pub message: String,
}

impl fmt::Display for TagExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid --tag expression {:?}: {} at column {}\n  {}\n  {}^",
            self.expression,
            self.message,
            self.column,
            self.expression,
            " ".repeat(self.column.saturating_sub(1))
        )
    }
}

impl std::error::Error for TagExprError {}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Open,
    Close,
    And,
    Or,
    Not,
    Tag(String),
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Open => "`(`".to_owned(),
            Token::Close => "`)`".to_owned(),
            Token::And => "`and`".to_owned(),
            Token::Or => "`or`".to_owned(),
            Token::Not => "`not`".to_owned(),
            Token::Tag(tag) => format!("tag `{tag}`"),
        }
    }
}

/// The tokens of `text`, each with its 1-based column.
fn tokens(text: &str) -> Vec<(Token, usize)> {
    let mut out = Vec::new();
    let mut chars = text.chars().enumerate().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '(' => out.push((Token::Open, at + 1)),
            ')' => out.push((Token::Close, at + 1)),
            c if c.is_whitespace() => {}
            c => {
                let mut word = String::from(c);
                while let Some(&(_, next)) = chars.peek() {
                    if next.is_whitespace() || next == '(' || next == ')' {
                        break;
                    }
                    word.push(next);
                    chars.next();
                }
                let token = match word.as_str() {
                    "and" => Token::And,
                    "or" => Token::Or,
                    "not" => Token::Not,
                    _ => Token::Tag(word.strip_prefix('@').unwrap_or(&word).to_owned()),
                };
                out.push((token, at + 1));
            }
        }
    }
    out
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<(Token, usize)>,
    at: usize,
}

impl Parser<'_> {
    fn error(&self, message: String) -> TagExprError {
        let column = self
            .tokens
            .get(self.at)
            .map_or(self.text.chars().count() + 1, |(_, column)| *column);
        TagExprError {
            expression: self.text.to_owned(),
            column,
            message,
        }
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|(token, _)| token)
    }

    fn or(&mut self) -> Result<TagExpr, TagExprError> {
        let mut left = self.and()?;
        while self.peek() == Some(&Token::Or) {
            self.at += 1;
            left = TagExpr::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<TagExpr, TagExprError> {
        let mut left = self.not()?;
        while self.peek() == Some(&Token::And) {
            self.at += 1;
            left = TagExpr::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<TagExpr, TagExprError> {
        if self.peek() == Some(&Token::Not) {
            self.at += 1;
            return Ok(TagExpr::Not(Box::new(self.not()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<TagExpr, TagExprError> {
        match self.peek().cloned() {
            Some(Token::Tag(tag)) if tag.is_empty() => {
                Err(self.error("`@` alone is not a tag".to_owned()))
            }
            Some(Token::Tag(tag)) => {
                self.at += 1;
                Ok(TagExpr::Tag(tag))
            }
            Some(Token::Open) => {
                let open = self.at;
                self.at += 1;
                let inner = self.or()?;
                if self.peek() != Some(&Token::Close) {
                    let unclosed = self.tokens[open].1;
                    let mut error = self.error(format!(
                        "expected `)` to close the `(` of column {unclosed}"
                    ));
                    if let Some(token) = self.peek() {
                        error
                            .message
                            .push_str(&format!(", found {}", token.describe()));
                    }
                    return Err(error);
                }
                self.at += 1;
                Ok(inner)
            }
            Some(token) => Err(self.error(format!("expected a tag, found {}", token.describe()))),
            None => Err(self.error("expected a tag, found the end".to_owned())),
        }
    }
}

impl FromStr for TagExpr {
    type Err = TagExprError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut parser = Parser {
            text,
            tokens: tokens(text),
            at: 0,
        };
        let expr = parser.or()?;
        match parser.peek() {
            None => Ok(expr),
            Some(token) => {
                let message = format!(
                    "expected `and`, `or` or the end, found {}",
                    token.describe()
                );
                Err(parser.error(message))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(list: &[&str]) -> Vec<String> {
        list.iter().map(|t| (*t).to_owned()).collect()
    }

    fn matches(expr: &str, list: &[&str]) -> bool {
        expr.parse::<TagExpr>().unwrap().matches(&tags(list))
    }

    #[test]
    fn operators_precedence_and_parentheses() {
        assert!(matches("smoke", &["smoke"]));
        assert!(matches("@smoke", &["smoke", "slow"]));
        assert!(!matches("smoke", &["slow"]));
        assert!(matches("smoke and not slow", &["smoke"]));
        assert!(!matches("smoke and not slow", &["smoke", "slow"]));
        assert!(matches("not not smoke", &["smoke"]));
        // `and` binds tighter than `or`.
        assert!(matches("a or b and c", &["a"]));
        assert!(!matches("(a or b) and c", &["a"]));
        assert!(matches("(a or b) and c", &["b", "c"]));
        assert!(matches("not(a)and(b)", &["b"]));
        // The operators' spellings as tags.
        assert!(matches("@and or @not", &["not"]));
        assert!(matches("smoke-test:ui", &["smoke-test:ui"]));
    }

    #[test]
    fn a_bad_expression_points_at_the_column() {
        let error = |text: &str| text.parse::<TagExpr>().unwrap_err();
        let e = error("smoke and");
        assert_eq!(
            (e.column, e.message.as_str()),
            (10, "expected a tag, found the end")
        );
        assert_eq!(
            e.to_string(),
            "invalid --tag expression \"smoke and\": expected a tag, found the end at column 10\n  smoke and\n           ^"
        );
        let e = error("smoke slow");
        assert_eq!(e.column, 7);
        assert_eq!(
            e.message,
            "expected `and`, `or` or the end, found tag `slow`"
        );
        let e = error("(a or b");
        assert_eq!(e.column, 8);
        assert_eq!(e.message, "expected `)` to close the `(` of column 1");
        let e = error("a and )");
        assert_eq!(
            (e.column, e.message.as_str()),
            (7, "expected a tag, found `)`")
        );
        assert_eq!(error("").column, 1);
        assert_eq!(error("a or @").message, "`@` alone is not a tag");
    }
}
