//! The subject of a failed check: the elements its locator resolved to when it failed, marked in
//! the page so that the checks of code healing it can be compared with them by identity (the
//! same nodes), never by the text of their locators. A heal whose check reads other elements
//! than a subject still on the page moved the check; see `engine/continuity.rs`.
//!
//! Main types: [`Place`], [`SubjectRead`] and [`Container`]; [`mark`] and [`place_of`] run in
//! the page.

use playwright_rs::protocol::Frame;
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::script::driver_error::HostError;
use crate::script::proof_mode::Read;

/// Where the elements a read resolved to are, against the marked subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// Exactly the subject's nodes.
    Same,
    /// Other nodes (some or all of them).
    Other,
    /// The read's selector resolves to nothing now.
    Nothing,
    /// The page could not tell: the selector could not be evaluated, or the subject's nodes
    /// left the page and could not be found again.
    Unknown,
}

/// A read a passing execution made, and where its elements are against the subject.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SubjectRead {
    pub read: Read,
    pub place: Place,
    /// Where the first element the read resolved to stands among its like siblings (the list
    /// item or row holding it, else itself, among the parent's children of the same tag and
    /// role): its index from 0, and how many there are.
    pub position: Option<(u32, u32)>,
    /// The first element the read resolved to and the elements around it, from itself up to
    /// (not including) `body`: what a sentence's scope words ("in the "Work" row", "in the
    /// cart", "in table 2") are checked against. Empty when the read resolved nothing.
    pub containers: Vec<Container>,
}

/// One element around a read's element, as a sentence's scope word may name it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default)]
pub(crate) struct Container {
    /// The tag name, in lowercase (`tr`, `aside`, `section`).
    pub tag: String,
    /// The explicit `role` attribute, if any.
    pub role: String,
    /// What names the element in its markup, each on its own: its `id`, each of its classes,
    /// its `aria-label`, the text of each of its `aria-labelledby` elements and its test id.
    pub names: Vec<String>,
    /// Whether its children are a layout grid's columns (a class `col`, `col-*` or
    /// `column(s)`), which makes a `div.row` around them a grid's row.
    pub columns: bool,
    /// The text of its first heading, caption, legend or summary, if it has one, read as its
    /// `text` is.
    pub heading: String,
    /// Its text content with a space where an element that is not inline begins or ends (the
    /// cells "Work" and "3" read "Work 3", not "Work3"), whitespace collapsed, cut to
    /// [`CONTAINER_TEXT_CHARS`] characters.
    pub text: String,
    /// For a table (`table`, `role=table`, `role=grid`): its place among the page's tables,
    /// from 1.
    pub table: Option<u32>,
}

/// How much of a container's text the page sends: enough for a row or a named region, never a
/// whole page.
pub(crate) const CONTAINER_TEXT_CHARS: usize = 2000;

/// The page function that marks elements as the subject (`"mark"`), or says where elements are
/// against the marked ones (`"place"`). The nodes are kept under a symbol on the window, so
/// the app's markup and styles never see them.
const SUBJECT_JS: &str = r#"(elements, mode) => {
  const key = Symbol.for('prettyplay.subject');
  if (mode === 'mark') {
    Object.defineProperty(window, key, { value: Array.from(elements), configurable: true, writable: true });
    return elements.length;
  }
  const at = (element) => {
    const item = element.closest('li, tr, [role=listitem], [role=row], [role=option]') || element;
    const parent = item.parentElement;
    if (!parent) return null;
    const like = Array.from(parent.children).filter((other) =>
      other.tagName === item.tagName && other.getAttribute('role') === item.getAttribute('role'));
    return [like.indexOf(item), like.length];
  };
  const tables = Array.from(document.querySelectorAll('table, [role=table], [role=grid]'));
  const flat = (text) => (text || '').replace(/\s+/g, ' ').trim();
  // The text of `root` as a reader sees its words apart: a space where an element that is not
  // inline begins or ends, so that table cells and list items never run together.
  const spaced = (root) => {
    let text = '';
    const walk = (node) => {
      if (text.length > 4 * TEXT_CHARS) return;
      if (node.nodeType === Node.TEXT_NODE) { text += node.data; return; }
      if (node.nodeType !== Node.ELEMENT_NODE || node.tagName === 'SCRIPT' || node.tagName === 'STYLE') return;
      const display = getComputedStyle(node).display;
      const apart = node.tagName === 'BR' || (display !== 'inline' && display !== 'contents');
      if (apart) text += ' ';
      for (const child of node.childNodes) walk(child);
      if (apart) text += ' ';
    };
    walk(root);
    return flat(text).slice(0, TEXT_CHARS);
  };
  const classes = (node) => (node.getAttribute('class') || '').split(/\s+/).filter(Boolean);
  const column = /^(col|columns?)(-|$)/;
  const around = (element) => {
    const out = [];
    for (let node = element; node && node !== document.body && node !== document.documentElement;
      node = node.parentElement) {
      const labelled = (node.getAttribute('aria-labelledby') || '').split(/\s+/)
        .map((id) => id && document.getElementById(id)).filter(Boolean).map((e) => e.textContent);
      const names = [node.id, ...classes(node), node.getAttribute('aria-label'),
        node.getAttribute('data-testid'), ...labelled].map(flat).filter(Boolean);
      const columns = Array.from(node.children).some((child) => classes(child).some((c) => column.test(c)));
      const heading = node.querySelector('h1, h2, h3, h4, h5, h6, caption, legend, summary');
      const table = tables.indexOf(node);
      out.push({ tag: node.tagName.toLowerCase(), role: node.getAttribute('role') || '',
        names, columns, heading: heading ? spaced(heading) : '',
        text: spaced(node), table: table < 0 ? null : table + 1 });
    }
    return out;
  };
  const answer = (place) => JSON.stringify({ place,
    position: elements.length ? at(elements[0]) : null,
    containers: elements.length ? around(elements[0]) : [] });
  const marked = window[key];
  if (!marked || !marked.length) return answer('unknown');
  if (!marked.some((element) => element.isConnected)) return answer('gone');
  if (!elements.length) return answer('nothing');
  const same = elements.length === marked.length && elements.every((element) => marked.includes(element));
  return answer(same ? 'same' : 'other');
}"#;

/// Runs [`SUBJECT_JS`] in `mode` on the elements of `selector`.
async fn run(frame: &Frame, selector: &str, mode: &str) -> Result<Value, HostError> {
    let arg = json!({ "value": { "s": mode }, "handles": [] });
    let expression = SUBJECT_JS.replace("TEXT_CHARS", &CONTAINER_TEXT_CHARS.to_string());
    frame
        .channel()
        .send(
            "evalOnSelectorAll",
            json!({ "selector": selector, "expression": expression, "isFunction": true, "arg": arg }),
        )
        .await
        .map_err(|err| HostError::from_playwright(err, false))
}

/// Marks the elements `selector` resolves to now as the subject; answers how many.
pub(crate) async fn mark(frame: &Frame, selector: &str) -> Result<u64, HostError> {
    let reply = run(frame, selector, "mark").await?;
    Ok(reply["value"]["n"]
        .as_f64()
        .map_or(0, |n| n.max(0.0) as u64))
}

/// Where the elements `selector` resolves to now are against the subject, where the first of
/// them stands among its like siblings, and the elements around it. When the subject's nodes all left the page
/// (the app rendered them anew), the subject's own selector (`subject`) marks them again once,
/// because it named the same element on the page. A subject marked by none (`None`: it had
/// vanished) leaves every place unknown.
pub(crate) async fn place_of(
    frame: &Frame,
    selector: &str,
    subject: Option<&str>,
) -> (Place, Option<(u32, u32)>, Vec<Container>) {
    for _ in 0..2 {
        let Ok(reply) = run(frame, selector, "place").await else {
            return (Place::Unknown, None, Vec::new());
        };
        let parsed: Value = reply["value"]["s"]
            .as_str()
            .and_then(|s| serde_json::from_str(s).ok())
            .unwrap_or_default();
        let position = parsed["position"].as_array().and_then(|p| {
            let index = u32::try_from(p.first()?.as_i64()?).ok()?;
            let of = u32::try_from(p.get(1)?.as_i64()?).ok()?;
            Some((index, of))
        });
        let containers: Vec<Container> =
            serde_json::from_value(parsed["containers"].clone()).unwrap_or_default();
        let place = match parsed["place"].as_str() {
            Some("same") => Place::Same,
            Some("other") => Place::Other,
            Some("nothing") => Place::Nothing,
            Some("gone") => {
                let again = match subject {
                    Some(subject) => matches!(mark(frame, subject).await, Ok(n) if n > 0),
                    None => false,
                };
                if again {
                    continue;
                }
                Place::Unknown
            }
            _ => Place::Unknown,
        };
        return (place, position, containers);
    }
    (Place::Unknown, None, Vec::new())
}
