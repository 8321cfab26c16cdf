//! The page as the built-in generator reads it: Playwright's AI-mode aria snapshot parsed into a
//! tree of nodes (role, accessible name, states such as `[checked]`, inline text, and the
//! `/url:` and `/placeholder:` properties).
//!
//! Main type: [`Snapshot`]. Lines it cannot read are skipped: a node the generator cannot see is
//! one it never names, so at worst it declines.

use std::cell::RefCell;

use crate::writer::builtin::structure::Structure;

/// One element (or text run) of the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    /// `button`, `textbox`, `generic`, ...; `text` for a bare text line.
    pub role: String,
    /// The accessible name, when the snapshot gives one.
    pub name: Option<String>,
    /// States and properties in brackets: `checked`, `disabled`, `level=1`, ...
    pub attrs: Vec<String>,
    /// The text after the colon: a text node's content or a textbox's value.
    pub text: Option<String>,
    /// `/placeholder:` of a textbox.
    pub placeholder: Option<String>,
    /// Indices of the children, in order.
    pub children: Vec<usize>,
    pub parent: Option<usize>,
    /// Its line in the snapshot text (0-based), for `prettyplay explain -v`.
    pub line: usize,
}

#[cfg(test)]
impl Node {
    pub(crate) fn has(&self, attr: &str) -> bool {
        self.attrs.iter().any(|a| a == attr)
    }
}

/// A parsed AI-mode aria snapshot.
#[derive(Debug, Clone, Default)]
pub(crate) struct Snapshot {
    pub nodes: Vec<Node>,
    /// The nodes resolution found or weighed (a match, the row or list it is in, the
    /// candidates of an ambiguity), in the order it came to them: what `explain -v` shows.
    noticed: RefCell<Vec<usize>>,
    /// What the page shows beyond the snapshot (`structure.rs`).
    pub structure: Structure,
}

impl Snapshot {
    /// Parses the YAML-like text of `ariaSnapshot({ mode: 'ai' })`, with or without its ref
    /// markers.
    pub(crate) fn parse(text: &str) -> Self {
        let mut nodes: Vec<Node> = Vec::new();
        // (indent, node index) of the open ancestors.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        // The indent of the frame whose lines are being passed over: the code the built-in
        // generator writes reaches the page's main frame only, so an element inside a frame is
        // not one it can act on or check (the frame itself stays, as a sign the page shows more).
        let mut frame: Option<usize> = None;
        for (at, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            let Some(item) = trimmed.strip_prefix("- ") else {
                continue;
            };
            let indent = line.len() - trimmed.len();
            match frame {
                Some(outer) if indent > outer => continue,
                _ => frame = None,
            }
            while stack.last().is_some_and(|&(i, _)| i >= indent) {
                stack.pop();
            }
            let parent = stack.last().map(|&(_, n)| n);
            if let Some(property) = item.strip_prefix('/') {
                if let (Some(parent), Some((key, value))) = (parent, property.split_once(':'))
                    && key == "placeholder"
                {
                    nodes[parent].placeholder = Some(unquote(value.trim()));
                }
                continue;
            }
            let Some(mut node) = parse_node(item) else {
                continue;
            };
            node.parent = parent;
            node.line = at;
            let index = nodes.len();
            if let Some(parent) = parent {
                nodes[parent].children.push(index);
            }
            nodes.push(node);
            if nodes[index].role == "iframe" {
                frame = Some(indent);
            }
            stack.push((indent, index));
        }
        Self {
            nodes,
            noticed: RefCell::default(),
            structure: Structure::default(),
        }
    }

    /// [`Snapshot::parse`], with the page's structure as `structure.js` listed it (JSON).
    pub(crate) fn read(text: &str, structure: &str) -> Self {
        Self {
            structure: Structure::parse(structure),
            ..Self::parse(text)
        }
    }

    /// The page with the elements it hides now counted as shown ([`Structure::revealed`]).
    pub(crate) fn revealed(&self) -> Self {
        Self {
            structure: self.structure.revealed(),
            ..self.clone()
        }
    }

    /// Records that resolution found or weighed `node` (see [`Snapshot::noticed`]).
    pub(crate) fn notice(&self, node: usize) {
        // An element found through the page's structure has no node.
        if node >= self.nodes.len() {
            return;
        }
        let mut noticed = self.noticed.borrow_mut();
        if !noticed.contains(&node) {
            noticed.push(node);
        }
    }

    /// The snapshot lines (0-based) of the nodes resolution found or weighed, in line order.
    pub(crate) fn noticed_lines(&self) -> Vec<usize> {
        let mut lines: Vec<usize> = self
            .noticed
            .borrow()
            .iter()
            .map(|&node| self.nodes[node].line)
            .collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    /// Every node and its descendants' text, as Playwright would read the element's text
    /// (names of named descendants stand in for their text).
    pub(crate) fn text_of(&self, index: usize) -> String {
        let mut out = Vec::new();
        self.collect_text(index, &mut out);
        out.join(" ")
    }

    fn collect_text(&self, index: usize, out: &mut Vec<String>) {
        let node = &self.nodes[index];
        if let Some(text) = &node.text
            && !is_field(&node.role)
        {
            out.push(text.clone());
        }
        if node.children.is_empty()
            && node.text.is_none()
            && let Some(name) = &node.name
            && names_its_text(&node.role)
        {
            out.push(name.clone());
        }
        for &child in &node.children {
            self.collect_text(child, out);
        }
    }

    /// The indices of `index`'s descendants (not itself), depth first.
    pub(crate) fn descendants(&self, index: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut todo: Vec<usize> = self.nodes[index].children.iter().rev().copied().collect();
        while let Some(next) = todo.pop() {
            out.push(next);
            todo.extend(self.nodes[next].children.iter().rev().copied());
        }
        out
    }

    /// The indices of the nodes with one of `roles`.
    pub(crate) fn with_roles(&self, roles: &[&str]) -> Vec<usize> {
        (0..self.nodes.len())
            .filter(|&i| roles.contains(&self.nodes[i].role.as_str()))
            .collect()
    }
}

/// Roles whose inline text is a value, not text content.
pub(crate) fn is_field(role: &str) -> bool {
    matches!(role, "textbox" | "searchbox" | "combobox" | "spinbutton")
}

/// Roles whose accessible name is (usually) their own text: a button's or a link's, not a
/// checkbox's (labelled from elsewhere) or a field's.
pub(crate) fn names_its_text(role: &str) -> bool {
    !is_field(role)
        && !matches!(
            role,
            "checkbox"
                | "radio"
                | "switch"
                | "img"
                | "list"
                | "listitem"
                | "status"
                | "alert"
                | "dialog"
                | "navigation"
                | "main"
                | "region"
                | "form"
                | "table"
                | "group"
        )
}

/// `role "name" [attr] [attr=v]: text` (the name, attributes and text each optional).
fn parse_node(item: &str) -> Option<Node> {
    let item = item.strip_suffix(':').unwrap_or(item);
    // A quoted line is text: `- "Some text"`.
    if item.starts_with('"') {
        return Some(text_node(unquote(item)));
    }
    let role_end = item.find([' ', ':', '[']).unwrap_or(item.len());
    let role = &item[..role_end];
    if role.is_empty() || !role.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return None;
    }
    let mut rest = item[role_end..].trim_start();
    if role == "text" {
        let text = rest.strip_prefix(':').unwrap_or(rest).trim();
        return Some(text_node(unquote(text)));
    }
    let mut name = None;
    if rest.starts_with('"') {
        let (value, after) = split_quoted(rest)?;
        name = Some(value);
        rest = after.trim_start();
    }
    let mut attrs = Vec::new();
    while let Some(open) = rest.strip_prefix('[') {
        let close = open.find(']')?;
        let attr = &open[..close];
        if !attr.starts_with("ref=") && !attr.starts_with("cursor=") {
            attrs.push(attr.to_owned());
        }
        rest = open[close + 1..].trim_start();
    }
    let text = rest
        .strip_prefix(':')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(unquote);
    Some(Node {
        role: role.to_owned(),
        name,
        attrs,
        text,
        placeholder: None,
        children: Vec::new(),
        parent: None,
        line: 0,
    })
}

fn text_node(text: String) -> Node {
    Node {
        role: "text".to_owned(),
        name: None,
        attrs: Vec::new(),
        text: Some(text),
        placeholder: None,
        children: Vec::new(),
        parent: None,
        line: 0,
    }
}

/// A JSON-style quoted string at the start of `text`, and what follows it.
fn split_quoted(text: &str) -> Option<(String, &str)> {
    let mut value = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Some((value, &text[at + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => value.push('\n'),
                't' => value.push('\t'),
                other => value.push(other),
            },
            other => value.push(other),
        }
    }
    None
}

/// A value as YAML writes it: quoted when it must be.
fn unquote(text: &str) -> String {
    if text.starts_with('"')
        && let Some((value, rest)) = split_quoted(text)
        && rest.trim().is_empty()
    {
        return value;
    }
    text.to_owned()
}

#[cfg(test)]
pub(crate) mod fixtures {
    /// The demo's todo page with two todos, the second completed (refs as Playwright writes
    /// them).
    pub(crate) const TODOS: &str = r##"- generic [active] [ref=e1]:
  - navigation [ref=e2]:
    - link "Sign in" [ref=e3] [cursor=pointer]:
      - /url: login.html
  - main [ref=e4]:
    - generic [ref=e5]:
      - heading "todos" [level=1] [ref=e6]
      - generic [ref=e7]:
        - generic [ref=e8]: New todo
        - textbox "New todo" [ref=e9]:
          - /placeholder: What needs to be done?
    - list "Todo list" [ref=e11]:
      - listitem [ref=e12]:
        - checkbox "buy milk" [ref=e13]
        - generic [ref=e14]: buy milk
        - button "Delete" [ref=e15]
      - listitem [ref=e16]:
        - checkbox "walk the dog" [checked] [ref=e17]
        - generic [ref=e18]: walk the dog
        - button "Delete" [ref=e19]
    - generic [ref=e20]:
      - status [ref=e21]: 1 item left
      - list "Filters" [ref=e22]:
        - listitem [ref=e23]:
          - link "All" [ref=e24] [cursor=pointer]:
            - /url: "#/"
        - listitem [ref=e25]:
          - link "Active" [ref=e26] [cursor=pointer]:
            - /url: "#/active"
        - listitem [ref=e27]:
          - link "Completed" [ref=e28] [cursor=pointer]:
            - /url: "#/completed"
      - button "Clear completed" [ref=e29]
  - paragraph [ref=e30]: Double-click a todo to edit it."##;

    /// The demo's sign-in page, the username typed in.
    pub(crate) const LOGIN: &str = r#"- generic [ref=f1e1]:
  - navigation [ref=f1e2]:
    - link "Back to todos" [ref=f1e3] [cursor=pointer]:
      - /url: index.html
  - main [ref=f1e4]:
    - heading "Sign in" [level=1] [ref=f1e5]
    - generic [ref=f1e6]:
      - generic [ref=f1e7]: Username
      - textbox "Username" [active] [ref=f1e8]: alice
      - generic [ref=f1e9]: Password
      - textbox "Password" [ref=f1e10]
      - button "Sign in" [ref=f1e11]
    - status [ref=f1e12]"#;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_roles_names_states_text_and_placeholders_are_read() {
        let snapshot = Snapshot::parse(fixtures::TODOS);
        let field = snapshot.nodes.iter().find(|n| n.role == "textbox").unwrap();
        assert_eq!(field.name.as_deref(), Some("New todo"));
        assert_eq!(field.placeholder.as_deref(), Some("What needs to be done?"));
        let done = snapshot
            .nodes
            .iter()
            .find(|n| n.name.as_deref() == Some("walk the dog"))
            .unwrap();
        assert!(done.has("checked"));
        let status = snapshot.with_roles(&["status"]);
        assert_eq!(
            snapshot.nodes[status[0]].text.as_deref(),
            Some("1 item left")
        );
        let list = snapshot
            .nodes
            .iter()
            .position(|n| n.name.as_deref() == Some("Todo list"))
            .unwrap();
        assert_eq!(
            snapshot.text_of(list),
            "buy milk Delete walk the dog Delete"
        );
        let login = Snapshot::parse(fixtures::LOGIN);
        let user = &login.nodes[login.with_roles(&["textbox"])[0]];
        assert_eq!(user.text.as_deref(), Some("alice"));
        assert!(user.has("active"));
    }

    #[test]
    fn quoted_names_and_bare_text_lines_are_unescaped() {
        let snapshot = Snapshot::parse(
            "- button \"Say \\\"hi\\\"\" [disabled]\n- text: plain words\n- \"quoted: text\"",
        );
        assert_eq!(snapshot.nodes[0].name.as_deref(), Some("Say \"hi\""));
        assert!(snapshot.nodes[0].has("disabled"));
        assert_eq!(snapshot.nodes[1].text.as_deref(), Some("plain words"));
        assert_eq!(snapshot.nodes[2].text.as_deref(), Some("quoted: text"));
    }
}
