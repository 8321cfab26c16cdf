//! Catalogues of cards: the repeated children of one container that each hold one heading (a
//! shop's products, a blog's posts, search results), which are not a list the aria snapshot
//! can name. Sentences about them name the items by their headings without quotes ("Spam is
//! priced $2.85", "the products are Hot dogs, Spam and Corned beef") and count them by any noun
//! ("12 products are shown"), so they are read here, after the other shapes declined.
//!
//! Main type: [`Cards`], the page's one collection of cards as found; [`read`] makes a sentence
//! an `Intent::Cards`, which the registry (`shapes.rs`) tries after the word shapes, and after
//! any of them declined a sentence ([`counts_cards`] says when a count of cards goes first).
//! `cards_code.rs` writes its code.

use crate::writer::builtin::intent::{CardCheck, Decline};
use crate::writer::builtin::kinds::KINDS;
use crate::writer::builtin::locator::norm;
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::structure::same_word;
use crate::writer::builtin::tokens::{Tok, find};

/// The cards of the page: where they are and the headings they show now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cards {
    /// The element whose children the cards are.
    pub container: Container,
    /// The level of the cards' headings (`2` for `<h2>`).
    pub level: String,
    /// The headings' texts, in page order.
    names: Vec<String>,
}

/// How the element that holds the cards is found: by its role and name, or by its role alone
/// when it is the page's only element of that role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Container {
    Named { role: String, name: String },
    OnlyOfRole(String),
}

/// The roles a card's element may have.
const CARD_ROLES: &[&str] = &[
    "generic", "article", "region", "group", "listitem", "figure",
];

impl Cards {
    /// The one collection of cards on the page: the children of one element that each hold
    /// exactly one heading, all of one level. Several such collections, or a container the
    /// code could not find by its role, decline, since the sentence does not say which.
    pub(crate) fn find(snap: &Snapshot) -> Result<Self, Decline> {
        let mut groups: Vec<(usize, String, Vec<String>)> = Vec::new();
        for (at, node) in snap.nodes.iter().enumerate() {
            let mut level: Option<String> = None;
            let mut names = Vec::new();
            let mut mixed = false;
            for &child in &node.children {
                if !CARD_ROLES.contains(&snap.nodes[child].role.as_str()) {
                    continue;
                }
                let headings = headings_in(snap, child);
                let [heading] = headings.as_slice() else {
                    continue;
                };
                let h = &snap.nodes[*heading];
                let this_level = h
                    .attrs
                    .iter()
                    .find_map(|a| a.strip_prefix("level="))
                    .unwrap_or("0")
                    .to_owned();
                if level.as_ref().is_some_and(|l| *l != this_level) {
                    mixed = true;
                }
                level = Some(this_level);
                names.push(h.name.clone().unwrap_or_default());
            }
            // A first-level heading is the page's title, not a card's.
            if let (Some(level), false) = (level, mixed)
                && level != "1"
                && !names.is_empty()
                && names.iter().all(|n| !n.is_empty())
            {
                groups.push((at, level, names));
            }
        }
        let most = groups.iter().map(|g| g.2.len()).max().unwrap_or(0);
        // A wrapper around the one container holds the same headings in one child: the
        // innermost of those is the container.
        let largest: Vec<&(usize, String, Vec<String>)> = groups
            .iter()
            .filter(|g| g.2.len() == most)
            .filter(|g| {
                !groups
                    .iter()
                    .any(|inner| inner.0 != g.0 && inner.2 == g.2 && is_inside(snap, inner.0, g.0))
            })
            .collect();
        let [(at, level, names)] = largest.as_slice() else {
            return Err(Decline::new(if groups.is_empty() {
                "the page shows no cards (repeated elements that each hold a heading)"
            } else {
                "the page shows several collections of cards; the sentence does not say which"
            }));
        };
        let node = &snap.nodes[*at];
        snap.notice(*at);
        let role = node.role.as_str();
        let container = match &node.name {
            Some(name) if role != "generic" => Container::Named {
                role: role.to_owned(),
                name: name.clone(),
            },
            None if role != "generic"
                && snap.nodes.iter().filter(|n| n.role == role).count() == 1 =>
            {
                Container::OnlyOfRole(role.to_owned())
            }
            _ => {
                return Err(Decline::new(
                    "the cards' container has no role or name of its own to find it by",
                ));
            }
        };
        Ok(Self {
            container,
            level: level.clone(),
            names: names.clone(),
        })
    }

    /// The names of `words`: the headings on the page they spell one after another (joined by
    /// `and`), or, when they spell none, the words as one name. `Carrot and coriander soup`
    /// stays one name because the page shows it so.
    pub(crate) fn split(&self, words: &[Tok]) -> Result<Vec<String>, Decline> {
        let texts: Vec<String> = words.iter().map(tok_text).collect();
        if texts.is_empty() {
            return Err(Decline::new("no item is named"));
        }
        let known: Vec<String> = self.names.iter().map(|n| norm(n)).collect();
        let mut ways = Vec::new();
        partitions(&texts, &known, Vec::new(), &mut ways);
        match ways.len() {
            // Each name as the page writes it.
            1 => Ok(ways
                .remove(0)
                .iter()
                .map(|lower| {
                    self.names
                        .iter()
                        .find(|n| norm(n) == *lower)
                        .cloned()
                        .unwrap_or_else(|| lower.clone())
                })
                .collect()),
            0 if !words.iter().any(|w| w.is("and")) => Ok(vec![texts.join(" ")]),
            0 => Err(Decline::new(
                "the names are not all headings on the page, so where one ends is unknown",
            )),
            _ => Err(Decline::new("the names can be read in more than one way")),
        }
    }
}

/// Every way to read `texts` as known names joined by `and` (each name as the page writes it,
/// lower case).
fn partitions(texts: &[String], known: &[String], so_far: Vec<String>, out: &mut Vec<Vec<String>>) {
    if texts.is_empty() {
        out.push(so_far);
        return;
    }
    let texts = match texts.first() {
        Some(and) if and == "and" && !so_far.is_empty() => &texts[1..],
        _ => texts,
    };
    for end in 1..=texts.len() {
        let name = norm(&texts[..end].join(" "));
        if known.contains(&name) && !so_far.contains(&name) {
            let mut next = so_far.clone();
            next.push(name);
            partitions(&texts[end..], known, next, out);
        }
    }
}

fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Word(_, orig) => orig.clone(),
        Tok::Lit(l) => l.clone(),
    }
}

/// Whether `node` is a descendant of `ancestor`.
fn is_inside(snap: &Snapshot, node: usize, ancestor: usize) -> bool {
    let mut at = snap.nodes[node].parent;
    while let Some(parent) = at {
        if parent == ancestor {
            return true;
        }
        at = snap.nodes[parent].parent;
    }
    false
}

/// The headings inside `node` (itself excluded).
fn headings_in(snap: &Snapshot, node: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = snap.nodes[node].children.clone();
    while let Some(at) = stack.pop() {
        if snap.nodes[at].role == "heading" {
            out.push(at);
        }
        stack.extend(snap.nodes[at].children.iter().copied());
    }
    out
}

/// Whether a word is a price or an amount: `$2.85`, `2.85`, `€3`, `4,50€`.
fn is_price(word: &str) -> bool {
    let digits = word.trim_start_matches(['$', '€', '£', '¥']);
    let digits = digits.trim_end_matches(['$', '€', '£']);
    // A bare whole number is a count, not a price.
    let priced = digits.len() < word.len() || digits.contains(['.', ',']);
    priced
        && !digits.is_empty()
        && digits.chars().any(|c| c.is_ascii_digit())
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        && digits.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// Words that say an item is on show.
const SHOWN: &[&str] = &[
    "shown",
    "displayed",
    "listed",
    "visible",
    "there",
    "back",
    "left",
    "remaining",
    "present",
    "showing",
    "appear",
    "appears",
];

/// Words that say an item is not on show, after `not` or alone.
const GONE: &[&str] = &["hidden", "gone", "invisible"];

/// Number words, `no` being 0.
const NUMBERS: &[&str] = &[
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
];

fn number(t: &Tok) -> Option<usize> {
    match t {
        Tok::Word(w, _) => w
            .parse()
            .ok()
            .or_else(|| NUMBERS.iter().position(|n| n == w)),
        Tok::Lit(_) => None,
    }
}

/// The check a sentence about cards makes, or `None` when it is no such sentence (and the
/// other shapes' decline stands).
pub(crate) fn read(t: &[Tok]) -> Option<CardCheck> {
    if let Some(decided) = counted(t) {
        return decided;
    }
    let at = find(t, &["is", "appear", "appears", "costs", "cost"])?;
    let (subject, rest) = (&t[..at], &t[at + 1..]);
    if subject.is_empty() {
        return None;
    }
    if let Some(price) = price(subject, rest) {
        return Some(price);
    }
    if let Some(decided) = quantified(&t[at], subject, rest) {
        return decided;
    }
    // `the products are A, B and C`
    if t[at].is("is")
        && subject.len() == 2
        && subject[0].is("the")
        && matches!(&subject[1], Tok::Word(x, _) if x.ends_with('s'))
        && !rest.is_empty()
        && !rest.iter().any(|w| w.is("not"))
        && !SHOWN.iter().any(|x| rest[0].is(x))
    {
        return Some(CardCheck::Names {
            names: rest.to_vec(),
            only: true,
            noun: subject[1..].to_vec(),
        });
    }
    if !t[at].is("is") {
        return None;
    }
    shown_or_gone(subject, rest)
}

/// `the number of products shown is 2`, `there are 6 products`: `Some` when the sentence starts
/// so, with the count it makes (`None` inside when the rest does not fit).
fn counted(t: &[Tok]) -> Option<Option<CardCheck>> {
    if t.len() >= 5 && t[0].is("the") && t[1].is("number") && t[2].is("of") {
        return Some((|| {
            let at = find(t, &["is"])?;
            let n = number(t.get(at + 1)?)?;
            (at + 2 == t.len()).then(|| CardCheck::Count(n, tok_text(&t[3])))
        })());
    }
    if t.len() >= 3 && t[0].is("there") && t[1].is("is") {
        return Some((|| {
            let n = number(&t[2])?;
            let rest = &t[3..];
            let noun_only = !rest.is_empty()
                && rest.len() <= 3
                && rest.iter().all(|w| matches!(w, Tok::Word(..)));
            noun_only.then(|| CardCheck::Count(n, tok_text(&rest[rest.len() - 1])))
        })());
    }
    None
}

/// `A costs $1.49`, `A is listed at $0.40`, `A is priced $2.85`, `A is $1.40`, `the price shown
/// is $2`: the card of A (or the one card shown) shows the price.
fn price(subject: &[Tok], rest: &[Tok]) -> Option<CardCheck> {
    let Some(Tok::Word(_, price)) = rest.last() else {
        return None;
    };
    let priced = is_price(price)
        && rest[..rest.len() - 1].iter().all(|w| {
            [
                "listed", "priced", "at", "for", "sold", "selling", "shown", "marked",
            ]
            .iter()
            .any(|x| w.is(x))
        });
    if !priced {
        return None;
    }
    let words: Vec<&Tok> = subject.iter().filter(|w| !w.is("the")).collect();
    let the_price = words.first().is_some_and(|w| w.is("price"))
        && words[1..]
            .iter()
            .all(|w| ["shown", "displayed", "listed"].iter().any(|x| w.is(x)));
    let name = if the_price {
        None
    } else {
        Some(subject.to_vec())
    };
    Some(CardCheck::Price {
        name,
        price: price.clone(),
    })
}

/// `12 products are shown`, `all 12 products are back`, `no products are shown`, `exactly three
/// products appear: A, B and C`: `Some` when the subject is a count of a noun, with the check
/// it makes (`None` inside when the verb says no count).
fn quantified(verb: &Tok, subject: &[Tok], rest: &[Tok]) -> Option<Option<CardCheck>> {
    let quantified = subject
        .iter()
        .skip_while(|w| w.is("all") || w.is("exactly") || w.is("only"))
        .collect::<Vec<_>>();
    let first = quantified.first()?;
    let n = number(first)?;
    if !(2..=3).contains(&quantified.len())
        || !quantified[1..].iter().all(|w| matches!(w, Tok::Word(..)))
    {
        return None;
    }
    let plural = quantified
        .last()
        .is_some_and(|w| matches!(w, Tok::Word(x, _) if x.ends_with('s')));
    if !plural {
        return Some(None);
    }
    let appear = verb.is("appear") || verb.is("appears");
    let shown_at = usize::from(!appear);
    let shown = appear || rest.first().is_some_and(|w| SHOWN.iter().any(|x| w.is(x)));
    if !shown {
        return Some(None);
    }
    let names = rest.get(shown_at..).unwrap_or_default();
    let noun = quantified.last().map(|w| tok_text(w)).unwrap_or_default();
    if names.is_empty() {
        return Some(Some(CardCheck::Count(n, noun)));
    }
    Some(Some(CardCheck::CountedNames {
        count: n,
        noun,
        names: names.to_vec(),
    }))
}

/// `A is shown`, `only A is shown`, `A is no longer shown`, `Spam is gone`, `A and B are among
/// them`.
fn shown_or_gone(subject: &[Tok], rest: &[Tok]) -> Option<CardCheck> {
    let (negated, rest) = match rest {
        [n, rest @ ..] if n.is("not") => (true, rest),
        [n, l, rest @ ..] if n.is("no") && l.is("longer") => (true, rest),
        rest => (false, rest),
    };
    let only = subject[0].is("only");
    let names = if only { &subject[1..] } else { subject };
    match rest {
        [w] if SHOWN.iter().any(|x| w.is(x)) && negated && !only => {
            Some(CardCheck::Absent(names.to_vec()))
        }
        [w] if GONE.iter().any(|x| w.is(x)) && !negated && !only => {
            Some(CardCheck::Absent(names.to_vec()))
        }
        [w] if SHOWN.iter().any(|x| w.is(x)) && !negated => Some(CardCheck::Names {
            names: names.to_vec(),
            only,
            noun: Vec::new(),
        }),
        // `A and B are among them`, `... among the results`
        [a, noun @ ..] if a.is("among") && !negated && !only => Some(CardCheck::Names {
            names: names.to_vec(),
            only: false,
            noun: noun.to_vec(),
        }),
        _ => None,
    }
}

/// Whether a count of the cards goes before the other shapes' reading of the sentence: the
/// page shows cards and the noun counted names none of its lists, which the other shapes would
/// otherwise count (the footer's links for `there are 6 products`).
pub(crate) fn counts_cards(t: &[Tok], snap: &Snapshot) -> bool {
    let noun = match read(t) {
        Some(CardCheck::Count(_, noun) | CardCheck::CountedNames { noun, .. }) => noun,
        _ => return false,
    };
    // `there are 2 checkboxes`: the noun names a kind of element, not the cards.
    if KINDS
        .iter()
        .any(|(words, _)| words.len() == 1 && same_word(words[0], &noun))
    {
        return false;
    }
    let names_a_list = snap.nodes.iter().any(|n| {
        n.role == "list"
            && n.name
                .as_deref()
                .is_some_and(|name| name.split_whitespace().any(|w| same_word(w, &noun)))
    }) || !snap
        .structure
        .by_words(std::slice::from_ref(&noun), &["list"])
        .is_empty();
    // One card under a landmark is a page's layout as often as a catalogue.
    !names_a_list && Cards::find(snap).is_ok_and(|cards| cards.names.len() >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_card_is_found_in_its_container_not_in_the_wrapper_around_it() {
        let page = "- generic:\n  - banner:\n    - heading \"The Shop\" [level=1]\n  - generic:\n    - complementary:\n      - button \"Filter\"\n    - main:\n      - generic:\n        - heading \"Spam\" [level=2]\n        - paragraph: $2.85\n";
        let cards = Cards::find(&Snapshot::parse(page)).unwrap();
        assert_eq!(cards.container, Container::OnlyOfRole("main".to_owned()));
        assert_eq!(cards.names, ["Spam"]);
    }
}
