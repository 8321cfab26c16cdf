//! The layering of `src/`, checked from the sources: every `crate::` path names the module it
//! depends on, and no dependency may run against the flow
//! (cli → report → runner → engine → step / writer → script → driver / llm / cache → config /
//! scenario),
//! nor form a circle between modules or between the files of one module. No source file has
//! more than 800 lines of non-test code, and unit tests live in the file they test. In the
//! built-in generator, only the code side (`codegen.rs` and the files beside it) writes
//! JavaScript.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module's layer: a module may depend only on modules of a lower layer, or of
/// its own layer without a circle.
const LAYERS: &[(&str, u32)] = &[
    ("main", 10),
    ("cli", 9),
    ("error", 9),
    ("report", 8),
    ("runner", 7),
    ("engine", 6),
    ("step", 5),
    ("writer", 5),
    ("script", 4),
    ("install", 4),
    ("export", 4),
    ("import", 3),
    ("driver", 3),
    ("llm", 3),
    ("cache", 3),
    ("web_server", 3),
    ("config", 2),
    ("scenario", 2),
    ("causes", 1),
    ("paths", 1),
    ("regular_file", 1),
    ("secrets", 1),
    ("snippet", 1),
    ("stop_signal", 1),
    ("test_env", 1),
    ("visible", 1),
];

/// The most lines of non-test code a source file may have. Test modules do not count because
/// unit tests stay in the file they test.
const MAX_LINES: usize = 800;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src/`, relative to it, `/`-separated.
fn sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut dirs = vec![src()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(src())
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                files.push((rel, fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// The top-level module a source file belongs to (`engine/heal.rs` → `engine`).
fn module_of(rel: &str) -> &str {
    match rel.split_once('/') {
        Some((module, _)) => module,
        None => rel.trim_end_matches(".rs"),
    }
}

/// The code of a file without comments and string literals' contents that could name paths
/// (only `//` comments matter in practice: doc links name other modules).
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
}

/// The paths a file names after `crate::`, as `[module, item, ...]`, with grouped imports
/// expanded (`use crate::{a::X, b::{Y, Z}}` names `a::X`, `b::Y` and `b::Z`).
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    paths_after(text, "crate::")
}

/// The paths a text names after `prefix` (`crate::` or `super::`), outside `//` comments.
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let code: String = code_lines(text).collect::<Vec<_>>().join("\n");
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(prefix) {
        let preceded_by_path = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        rest = &rest[at + prefix.len()..];
        if !preceded_by_path {
            paths.extend(paths_of(rest));
        }
    }
    paths
}

/// The text with the contents of comments, string literals and character literals replaced
/// by spaces. Newlines and byte offsets stay where they were, so positions found in the result
/// are positions in `text`, and braces or attributes inside literals and comments are not
/// taken for code.
fn masked(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Copies `text[from..to]` with every character but a newline turned into spaces.
    let blank = |out: &mut String, from: usize, to: usize| {
        for c in text[from..to].chars() {
            if c == '\n' {
                out.push('\n');
            } else {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
        }
    };
    let ident =
        |at: usize| at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(text.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with("/*") {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (0usize, i);
            while j < bytes.len() {
                if text[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if text[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if bytes[i] == b'r'
            && (!ident(i) || (bytes[i - 1] == b'b' && !ident(i - 1)))
            && let Some(hashes) = rest[1..].find(|c| c != '#')
            && rest[1 + hashes..].starts_with('"')
        {
            // A raw string ends at a quote followed by as many hashes as it opened with.
            let open = 2 + hashes;
            let close = format!("\"{}", "#".repeat(hashes));
            let end = rest[open..]
                .find(&close)
                .map_or(text.len(), |n| i + open + n);
            out.push_str(&text[i..i + open]);
            blank(&mut out, i + open, end);
            out.push_str(&text[end..(end + close.len()).min(text.len())]);
            i = end + close.len();
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            out.push('"');
            blank(&mut out, i + 1, j.min(text.len()));
            i = j + 1;
            if i <= text.len() {
                out.push('"');
            }
        } else if bytes[i] == b'\'' {
            // A character literal is `'x'` or an escape such as `'\n'`; anything else after a
            // quote is a lifetime or a label, which stays.
            // The character after the backslash is skipped, so that `'\''` ends at its
            // third quote.
            let end = if rest[1..].starts_with('\\') {
                rest.get(3..)
                    .and_then(|after| after.find('\''))
                    .map(|n| i + 3 + n + 1)
            } else {
                rest[1..]
                    .chars()
                    .next()
                    .filter(|c| rest[1 + c.len_utf8()..].starts_with('\''))
                    .map(|c| i + 1 + c.len_utf8() + 1)
            };
            match end {
                Some(end) => {
                    out.push('\'');
                    blank(&mut out, i + 1, end - 1);
                    out.push('\'');
                    i = end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Where the item that starts at the beginning of `code` (a masked text) ends: after the `}`
/// that closes its first brace, or after a `;` outside any brackets when it has no body
/// (`mod tests;`, `use x::Y;`). Attributes and generics are skipped by the bracket depth.
fn item_end(code: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in code.char_indices() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && c == '}' {
                    return i + 1;
                }
            }
            ';' if depth == 0 => return i + 1,
            _ => {}
        }
    }
    code.len()
}

/// A file's text without its test-only items: each `#[cfg(test)]` attribute and the item it
/// applies to. Tests may use any helper, so they are not part of the file graph, and they do not
/// count towards a file's size.
fn without_tests(text: &str) -> String {
    const CFG_TEST: &str = "#[cfg(test)]";
    let code = masked(text);
    let mut kept = String::new();
    let mut from = 0;
    while let Some(at) = code[from..].find(CFG_TEST).map(|n| from + n) {
        kept.push_str(&text[from..at]);
        let after = at + CFG_TEST.len();
        from = after + item_end(&code[after..]);
    }
    kept.push_str(&text[from..]);
    kept
}

/// The test harness files of `src/`: those a `mod.rs` declares as `#[cfg(test)] mod name;`.
/// They are test code, like test modules.
fn harness_files(files: &[(String, String)]) -> BTreeSet<String> {
    files
        .iter()
        .filter_map(|(rel, text)| Some((rel.strip_suffix("/mod.rs")?, text)))
        .flat_map(|(module, text)| {
            let mut lines = text.lines().peekable();
            let mut found = Vec::new();
            while let Some(line) = lines.next() {
                if line.trim() == "#[cfg(test)]"
                    && let Some(name) = lines
                        .peek()
                        .and_then(|next| next.trim().strip_prefix("mod "))
                        .and_then(|rest| rest.strip_suffix(';'))
                {
                    found.push(format!("{module}/{name}.rs"));
                }
            }
            found
        })
        .collect()
}

/// What a `pub use` / `pub(crate) use` / `pub(super) use` statement imports, if it is one.
fn reexported(statement: &str) -> Option<&str> {
    let rest = statement.strip_prefix("pub")?;
    let rest = match rest.strip_prefix('(') {
        Some(scoped) => &scoped[scoped.find(')')? + 1..],
        None => rest,
    };
    rest.trim_start().strip_prefix("use ")
}

/// The paths at the start of `text`: `a::b::C`, or `a::{B, c::D}` expanded.
fn paths_of(text: &str) -> Vec<Vec<String>> {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        return group_items(group).into_iter().flat_map(paths_of).collect();
    }
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    if end == 0 {
        return Vec::new();
    }
    let head = text[..end].to_owned();
    match text[end..].strip_prefix("::") {
        Some(next) => {
            let tails = paths_of(next);
            if tails.is_empty() {
                return vec![vec![head]];
            }
            tails
                .into_iter()
                .map(|tail| std::iter::once(head.clone()).chain(tail).collect())
                .collect()
        }
        None => vec![vec![head]],
    }
}

/// The comma-separated items of a `{...}` group whose opening brace is already taken.
fn group_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// The cycles of a directed graph, as one witness path per strongly connected component with
/// more than one node.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut reported = BTreeSet::new();
    for start in graph.keys() {
        if reported.contains(start) {
            continue;
        }
        // Depth-first search for a path back to `start`.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((node, path)) = stack.pop() {
            for next in graph.get(&node).into_iter().flatten() {
                if next == start {
                    let mut circle = path.clone();
                    circle.push(start.clone());
                    reported.extend(circle.iter().cloned());
                    found.push(circle);
                    stack.clear();
                    break;
                }
                if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    found
}

#[test]
fn no_module_depends_on_a_higher_layer_or_in_a_circle() {
    let layers: BTreeMap<&str, u32> = LAYERS.iter().copied().collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut against_the_flow = Vec::new();
    for (rel, text) in sources() {
        let from = module_of(&rel);
        if from == "lib" {
            continue;
        }
        let from_layer = *layers
            .get(from)
            .unwrap_or_else(|| panic!("src/{rel}: module {from} has no layer in LAYERS"));
        for path in crate_paths(&text) {
            let to = path[0].as_str();
            if to == from {
                continue;
            }
            let Some(&to_layer) = layers.get(to) else {
                against_the_flow.push(format!(
                    "src/{rel}: crate::{} names no module with a layer",
                    path.join("::")
                ));
                continue;
            };
            graph
                .entry(from.to_owned())
                .or_default()
                .insert(to.to_owned());
            if to_layer > from_layer {
                against_the_flow.push(format!("src/{rel}: {from} uses crate::{}", path.join("::")));
            }
        }
    }
    against_the_flow.sort();
    against_the_flow.dedup();
    assert!(
        against_the_flow.is_empty(),
        "imports against the flow:\n{}",
        against_the_flow.join("\n")
    );
    let circles = circles(&graph);
    assert!(circles.is_empty(), "module circles: {circles:?}");
}

/// Inside one folder of `src/` (a module, or a module nested in one, at any depth):
/// `crate::m::file::X` and (from a file of the folder itself) `super::file::X` name a file
/// directly; `crate::m::X` names the file that `m/mod.rs` re-exports `X` from; a nested folder
/// is one node of its parent's graph, and has a graph of its own.
#[test]
fn no_two_files_of_a_folder_depend_on_each_other() {
    let files = sources();
    // For each folder, which file each re-exported name comes from.
    let mut exports: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (rel, text) in &files {
        let Some(folder) = rel.strip_suffix("/mod.rs") else {
            continue;
        };
        let code: String = code_lines(text).collect::<Vec<_>>().join("\n");
        for statement in code.split(';') {
            let Some(used) = reexported(statement.trim()) else {
                continue;
            };
            for path in paths_of(used) {
                if let [file, .., name] = path.as_slice() {
                    exports
                        .entry(folder.to_owned())
                        .or_default()
                        .insert(name.clone(), file.clone());
                }
            }
        }
    }
    // Test harness files (`#[cfg(test)] mod testing;`) stand outside the graph, like tests.
    let harness = harness_files(&files);
    let folders: BTreeSet<&str> = files
        .iter()
        .filter_map(|(rel, _)| rel.rsplit_once('/').map(|(folder, _)| folder))
        .collect();
    let mut found = Vec::new();
    for folder in folders {
        let prefix = format!("{folder}/");
        let module_path: Vec<&str> = folder.split('/').collect();
        // The folder's nodes: its files, and its subfolders as one node each.
        let node_of = |rest: &str| match rest.split_once('/') {
            Some((sub, _)) => (sub.to_owned(), false),
            None => (rest.trim_end_matches(".rs").to_owned(), true),
        };
        let nodes: BTreeSet<String> = files
            .iter()
            .filter_map(|(rel, _)| rel.strip_prefix(&prefix))
            .map(|rest| node_of(rest).0)
            .collect();
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (rel, text) in &files {
            let Some(rest) = rel.strip_prefix(&prefix) else {
                continue;
            };
            if rest == "mod.rs" || harness.contains(rel) {
                continue;
            }
            let (this, direct) = node_of(rest);
            let text = &without_tests(text);
            // `crate::m::x` names `x` in this folder, and so does `super::x` in a file of the
            // folder itself: a file or subfolder, or a name that mod.rs re-exports from one.
            let mut named: Vec<String> = crate_paths(text)
                .into_iter()
                .filter(|path| {
                    path.len() > module_path.len()
                        && path.iter().zip(&module_path).all(|(a, b)| a == b)
                })
                .map(|path| path[module_path.len()].clone())
                .collect();
            if direct {
                named.extend(
                    paths_after(text, "super::")
                        .into_iter()
                        .map(|path| path[0].clone()),
                );
            }
            let mut targets = BTreeSet::new();
            for name in named {
                if nodes.contains(&name) {
                    targets.insert(name);
                } else if let Some(file) = exports.get(folder).and_then(|e| e.get(&name)) {
                    targets.insert(file.clone());
                }
            }
            targets.remove(&this);
            graph
                .entry(format!("{folder}/{this}"))
                .or_default()
                .extend(targets.into_iter().map(|t| format!("{folder}/{t}")));
        }
        found.extend(circles(&graph));
    }
    assert!(found.is_empty(), "file circles: {found:#?}");
}

#[test]
fn no_source_file_is_over_800_non_test_lines() {
    let files = sources();
    let harness = harness_files(&files);
    let long: Vec<String> = files
        .iter()
        .filter(|(rel, _)| !harness.contains(rel))
        .map(|(rel, text)| (rel, without_tests(text).lines().count()))
        .filter(|&(_, lines)| lines > MAX_LINES)
        .map(|(rel, lines)| format!("src/{rel}: {lines} non-test lines"))
        .collect();
    assert!(
        long.is_empty(),
        "split these files (at most {MAX_LINES} lines of non-test code):\n{}",
        long.join("\n")
    );
}

/// Unit tests live in the file they test, as `#[cfg(test)] mod tests { ... }`, not in a
/// `*_tests.rs` file beside it.
#[test]
fn unit_tests_live_in_the_file_they_test() {
    let apart: Vec<String> = sources()
        .into_iter()
        .map(|(rel, _)| rel)
        .filter(|rel| rel.ends_with("_tests.rs"))
        .map(|rel| format!("src/{rel}"))
        .collect();
    assert!(
        apart.is_empty(),
        "move these tests into the file they test:\n{}",
        apart.join("\n")
    );
}

#[test]
fn test_items_are_found_past_braces_in_literals_and_comments() {
    let text = "fn a() {}\n\
                #[cfg(test)]\n\
                fn helper() -> char { '}' }\n\
                fn b() { let s = \"}\"; }\n\
                #[cfg(test)]\n\
                #[path = \"x_tests.rs\"]\n\
                mod x;\n\
                #[cfg(test)]\n\
                mod tests {\n    \
                    // A stray } in a comment.\n    \
                    const S: &str = r#\"}\"#;\n    \
                    fn f<'a>(x: &'a [u8; 2]) -> &'a str { \"{\" }\n\
                }\n\
                fn c() {}\n";
    assert_eq!(
        without_tests(text),
        "fn a() {}\n\nfn b() { let s = \"}\"; }\n\n\nfn c() {}\n"
    );
    assert_eq!(
        masked("let c = '\"'; // \"x\"\nlet r = br\"\\\";"),
        format!("let c = ' '; {}\nlet r = br\" \";", " ".repeat(6))
    );
    // An escaped quote in a character literal ends at its third quote, so the literal after
    // it is still masked.
    assert_eq!(masked("['\\'','\"'] \"await x\""), "['  ',' '] \"       \"");
}

#[test]
fn the_path_reader_sees_grouped_and_nested_imports() {
    let paths = crate_paths(
        "use crate::{cache::Cache, step::{LivePage, settle}};\n\
         // crate::runner::Nope in a comment\n\
         let x = crate::engine::budgets::Pool::Healing;\n\
         use crate::llm::{\n    Category,\n    Usage,\n};\n\
         my_crate::other::X;",
    );
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        [
            "cache::Cache",
            "step::LivePage",
            "step::settle",
            "engine::budgets::Pool::Healing",
            "llm::Category",
            "llm::Usage",
        ]
    );
    let supers: Vec<String> = paths_after(
        "use super::{\n    a::X,\n    B,\n};\nlet y = super::c::f();\nuse crate::super_x::Y;",
        "super::",
    )
    .iter()
    .map(|p| p.join("::"))
    .collect();
    assert_eq!(supers, ["a::X", "B", "c::f"]);
    assert_eq!(reexported("pub(super) use x::{A, B}"), Some("x::{A, B}"));
    assert_eq!(reexported("pub use x::A"), Some("x::A"));
    assert_eq!(reexported("use x::A"), None);
    assert_eq!(
        without_tests("fn a() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"),
        "fn a() {}\n\n"
    );
    let mut graph = BTreeMap::new();
    graph.insert("a".to_owned(), BTreeSet::from(["b".to_owned()]));
    graph.insert("b".to_owned(), BTreeSet::from(["c".to_owned()]));
    graph.insert("c".to_owned(), BTreeSet::from(["a".to_owned()]));
    assert_eq!(circles(&graph), [vec!["a", "b", "c", "a"]]);
}

/// Where production code may look for a fixed text inside a string, with the texts it looks for
/// and what it reads there. A decision never reads a message or reason prettyplay composed
/// itself (that is what typed values are for), so every entry reads text from outside: the
/// driver's and the browser's messages, the LLM's reply, HTTP, files users or other tools
/// wrote, the user's sentences and step code, or a report file prettyplay wrote in an earlier
/// run and must recognise on disk.
const TEXT_TESTS: &[(&str, &[&str], &str)] = &[
    (
        "cache/cache.rs",
        &[".tmp", ".toml.", ".png."],
        "file names left in the cache directory",
    ),
    (
        "cache/toml_string.rs",
        &["'''"],
        "step code, to choose a TOML string form",
    ),
    (
        "cli/explain_at.rs",
        &[".steps", ".feature"],
        "a path the user typed",
    ),
    (
        "cli/origins.rs",
        &["http"],
        "an origin the browser requested, from the last run's record",
    ),
    (
        "config/remote_settings.rs",
        &["wss:"],
        "an endpoint the user configured",
    ),
    (
        "config/toml_errors.rs",
        &["struct "],
        "serde's description of an expected type",
    ),
    (
        "driver/launch_failure.rs",
        &["<launched>", "Browser closed", "has been closed"],
        "the driver's and the browser's launch log",
    ),
    (
        "driver/origins.rs",
        &["chrome-error:", "http"],
        "a URL the browser reports",
    ),
    (
        "driver/outbound_proxy.rs",
        &["HTTP/", "upgrade:", "websocket"],
        "a request line and headers a browser sent",
    ),
    (
        "driver/step_reach.rs",
        &["://", "./", "../"],
        "a word of step code: a URL's scheme, or a path relative to the page",
    ),
    (
        "engine/locator_texts.rs",
        &["text", "contains(", "xpath=", "//"],
        "a selector in step code",
    ),
    (
        "engine/claims.rs",
        &["${", "nothing else", "n't"],
        "the words and placeholders of a sentence",
    ),
    (
        "engine/reuse.rs",
        &["vars."],
        "a placeholder's expression in a sentence",
    ),
    ("writer/sentence.rs", &["${"], "a placeholder in a sentence"),
    (
        "writer/builtin/check_code.rs",
        &["${"],
        "a sentence's value",
    ),
    (
        "writer/builtin/compound_code.rs",
        &["const "],
        "the lines the built-in wrote for a clause (issue 42 gives the built-in one writer \
         of JavaScript)",
    ),
    (
        "writer/builtin/forms.rs",
        &["${"],
        "a placeholder in a sentence",
    ),
    (
        "writer/builtin/grammar.rs",
        &["http://", "https://"],
        "a sentence's words",
    ),
    ("writer/builtin/phrases.rs", &["${"], "a sentence's words"),
    (
        "writer/builtin/http.rs",
        &["//", "${"],
        "a sentence's URL and placeholders",
    ),
    (
        "writer/builtin/http_js.rs",
        &["${"],
        "a placeholder in a sentence",
    ),
    (
        "writer/builtin/js_values.rs",
        &["${"],
        "a placeholder in a sentence",
    ),
    (
        "writer/builtin/rewrites.rs",
        &["${"],
        "a placeholder in a sentence",
    ),
    (
        "writer/builtin/rows.rs",
        &["page"],
        "a locator read from the page's snapshot",
    ),
    (
        "writer/builtin/structure.rs",
        &["page"],
        "a locator read from the page's snapshot",
    ),
    (
        "writer/builtin/snapshot.rs",
        &["ref=", "cursor="],
        "Playwright's aria snapshot",
    ),
    (
        "export/project.rs",
        &["Written by `prettyplay export --playwright`"],
        "a file on disk, to tell an earlier export from a user's file",
    ),
    (
        "import/plan.rs",
        &["## ", "**Steps:**"],
        "a Markdown plan another tool wrote",
    ),
    (
        "llm/answer.rs",
        &["+json", "text/html", "application/xhtml"],
        "an HTTP content type",
    ),
    (
        "report/details.rs",
        &["--- ", "+++ ", "@@"],
        "a unified diff in Playwright's failure message",
    ),
    (
        "report/serve.rs",
        &["HTTP/1.", ".localhost"],
        "a request line and a host name",
    ),
    (
        "report/stale.rs",
        &[
            "<title>prettyplay report",
            "<testsuites name=\\\"prettyplay\\\"",
            "{\\\"version\\\":",
            "\\\"event\\\":\\\"run_started\\\"",
        ],
        "a report file on disk, to tell one an earlier run wrote from a user's file",
    ),
    (
        "scenario/feature.rs",
        &["Scenario"],
        "a line of a Gherkin file",
    ),
    (
        "script/api_request.rs",
        &["content-"],
        "a header name step code gave",
    ),
    (
        "script/binding.rs",
        &["target crashed", "page crashed"],
        "Playwright's error message",
    ),
    (
        "script/driver_error.rs",
        &[
            "strict mode violation",
            "target page, context or browser has been closed",
            "browser has been closed",
            "target closed",
            "frame was detached",
            "execution context was destroyed",
            "at ",
            ".js:",
            "<anonymous>",
            ".array",
        ],
        "Playwright's error messages, their stack lines and received-value expressions",
    ),
    (
        "script/navigation.rs",
        &["net::", "://"],
        "the browser's error codes and a URL",
    ),
    (
        "script/observe.rs",
        &["chrome-error:", "about:neterror"],
        "a URL the browser reports",
    ),
    (
        "script/optional_target.rs",
        &["internal:", "has-text=", "has-not-text="],
        "a selector Playwright resolved",
    ),
    (
        "script/sandbox.rs",
        &["out of memory"],
        "QuickJS's error message",
    ),
    ("script/call_reach.rs", &["${"], "step code"),
    (
        "step/proof.rs",
        &["\\\"i", "has-text=", "/i"],
        "a selector Playwright resolved",
    ),
    (
        "script/set_cookie.rs",
        &[".localhost"],
        "the host of a URL step code requested",
    ),
];

/// The methods that look for a fixed text inside a string.
const TEXT_TEST_CALLS: &[&str] = &[".contains(\"", ".starts_with(\"", ".ends_with(\""];

/// Every `.contains("…")`, `.starts_with("…")` and `.ends_with("…")` of the non-test code,
/// as (file, the text looked for as written in the source).
fn text_tests() -> Vec<(String, String)> {
    let files = sources();
    let harness = harness_files(&files);
    let mut found = Vec::new();
    for (rel, text) in files.iter().filter(|(rel, _)| !harness.contains(rel)) {
        let text = without_tests(text);
        let code = masked(&text);
        for call in TEXT_TEST_CALLS {
            // The call's name and its opening quote are code; the literal's contents are
            // masked, so they are read from the text at the same offsets.
            let opener = &call[..call.len() - 1];
            let mut from = 0;
            while let Some(at) = code[from..].find(opener).map(|n| from + n) {
                from = at + opener.len();
                if !text[from..].starts_with('"') {
                    continue;
                }
                let start = from + 1;
                let mut end = start;
                let bytes = text.as_bytes();
                while end < bytes.len() && bytes[end] != b'"' {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                found.push((rel.clone(), text[start..end.min(text.len())].to_owned()));
            }
        }
    }
    found
}

/// A decision on a message we wrote ourselves breaks when the message's wording changes and
/// hides which case it stands for; typed values say it once. Looking for a fixed text in a
/// string is allowed only where the string comes from outside, listed in `TEXT_TESTS` with
/// what it reads.
#[test]
fn no_decision_reads_a_message_we_composed() {
    let unlisted: Vec<String> = text_tests()
        .into_iter()
        .filter(|(rel, needle)| {
            !TEXT_TESTS
                .iter()
                .any(|(file, needles, _)| file == rel && needles.contains(&needle.as_str()))
        })
        .map(|(rel, needle)| format!("src/{rel}: looks for \"{needle}\""))
        .collect();
    assert!(
        unlisted.is_empty(),
        "these look for a fixed text in a string; decide on a typed value instead, or, where \
         the string comes from outside prettyplay (a driver or LLM message, a file, a user's \
         sentence), list the file, the text and what it reads in TEXT_TESTS:\n{}",
        unlisted.join("\n")
    );
}

/// The list of allowed text tests names only tests the code still makes, so an entry cannot
/// outlive its reason and later excuse a new one.
#[test]
fn every_allowed_text_test_is_still_made() {
    let made = text_tests();
    let stale: Vec<String> = TEXT_TESTS
        .iter()
        .flat_map(|(file, needles, _)| needles.iter().map(move |needle| (file, needle)))
        .filter(|(file, needle)| !made.iter().any(|(rel, n)| rel == *file && n == *needle))
        .map(|(file, needle)| format!("src/{file}: \"{needle}\""))
        .collect();
    assert!(
        stale.is_empty(),
        "remove these entries of TEXT_TESTS, the code no longer makes them:\n{}",
        stale.join("\n")
    );
}

/// The folder of the built-in generator, whose code side alone writes JavaScript.
const BUILTIN: &str = "writer/builtin/";

/// Whether a file of the built-in generator is on its code side, which writes the JavaScript of
/// a step: `codegen.rs`, a `*_code.rs` file beside it, or `http_js.rs` (the values of an HTTP
/// request). Every other file reads sentences into intents.
fn writes_javascript(file: &str) -> bool {
    file == "codegen.rs" || file == "http_js.rs" || file.ends_with("_code.rs")
}

/// The reading files that still hold JavaScript, each with why: the documented examples hold
/// the code their sentences get as data, `discourse.rs` reads the earlier steps' code, and the
/// others still write code of their own and are to move to the code side. An entry whose file
/// no longer holds JavaScript fails the check, so the list only shrinks.
const STILL_HOLD_JAVASCRIPT: &[(&str, &str)] = &[
    (
        "shape_examples.rs",
        "the shapes' examples, with the code each gets",
    ),
    (
        "reader_examples.rs",
        "the plan readers' examples, with the code each gets",
    ),
    ("loading.rs", "its shapes' examples"),
    ("tables.rs", "its shapes' examples"),
    ("table_cells.rs", "its shapes' examples"),
    (
        "discourse.rs",
        "reads the earlier steps' code, which is its input, and writes none",
    ),
    (
        "resolve.rs",
        "not moved yet: element resolution returns locators as text",
    ),
    ("rows.rs", "not moved yet: row locators as text"),
    (
        "unnamed.rs",
        "not moved yet: unnamed elements' locators as text",
    ),
];

/// The string literals of a text's code (not its comments), each with its 1-based line.
fn string_literals(text: &str) -> Vec<(usize, &str)> {
    let code = masked(text);
    // Masking blanks what is inside literals and comments, so every quote left is a literal's
    // opening or closing one, in pairs.
    let quotes: Vec<usize> = code.match_indices('"').map(|(at, _)| at).collect();
    quotes
        .chunks(2)
        .filter_map(|pair| match pair {
            [open, close] => Some((
                text[..*open].matches('\n').count() + 1,
                &text[open + 1..*close],
            )),
            _ => None,
        })
        .collect()
}

/// Whether a string literal holds JavaScript: a statement that awaits, an assertion, a member
/// of `page` (`page.` before a name or a placeholder, because a message may end a sentence with
/// "page."), or a call of a method of the step-code API (`{}.click(`, `{base}.getByRole(`),
/// whatever the object is written as.
fn holds_javascript(literal: &str, methods: &BTreeSet<String>) -> bool {
    literal.contains("await ")
        || literal.contains("expect(")
        || literal.match_indices("page.").any(|(at, m)| {
            literal[at + m.len()..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '{')
        })
        || literal.match_indices('.').any(|(at, _)| {
            let rest = &literal[at + 1..];
            let name_len = rest
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(rest.len());
            rest[name_len..].starts_with('(') && methods.contains(&rest[..name_len])
        })
}

/// The names of the step-code API's methods (`click`, `getByRole`, `toHaveText`), as
/// docs/step-api.md lists the API the binding mirrors: one `object.method(...)` per line.
fn api_method_names() -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/step-api.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let names: BTreeSet<String> = text
        .lines()
        .filter_map(|line| {
            let (object, rest) = line.split_once('.')?;
            if object.is_empty() || !object.chars().all(|c| c.is_ascii_alphabetic()) {
                return None;
            }
            let name = &rest[..rest.find('(')?];
            (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()))
                .then(|| name.to_owned())
        })
        .collect();
    // A sanity floor: a change to the document's layout must not leave the check with no names.
    assert!(
        ["click", "getByRole", "fill", "toHaveText", "first"]
            .iter()
            .all(|name| names.contains(*name)),
        "docs/step-api.md no longer lists the API one method per line: {names:?}"
    );
    names
}

/// The non-test lines of a file that hold JavaScript in a string literal.
fn javascript_lines(text: &str, methods: &BTreeSet<String>) -> Vec<usize> {
    let code = without_tests(text);
    string_literals(&code)
        .into_iter()
        .filter(|(_, literal)| holds_javascript(literal, methods))
        .map(|(line, _)| line)
        .collect()
}

#[test]
fn only_the_code_side_of_the_builtin_generator_writes_javascript() {
    let methods = api_method_names();
    let mut found = Vec::new();
    let mut holding = BTreeSet::new();
    for (rel, text) in sources() {
        let Some(file) = rel.strip_prefix(BUILTIN) else {
            continue;
        };
        if writes_javascript(file) {
            continue;
        }
        let lines = javascript_lines(&text, &methods);
        if lines.is_empty() {
            continue;
        }
        holding.insert(file.to_owned());
        if !STILL_HOLD_JAVASCRIPT
            .iter()
            .any(|(listed, _)| *listed == file)
        {
            found.push(format!("src/{rel}: lines {lines:?}"));
        }
    }
    assert!(
        found.is_empty(),
        "these reading files write JavaScript; move it to codegen.rs or a *_code.rs file:\n{}",
        found.join("\n")
    );
    let stale: Vec<&str> = STILL_HOLD_JAVASCRIPT
        .iter()
        .map(|(file, _)| *file)
        .filter(|file| !holding.contains(*file))
        .collect();
    assert!(
        stale.is_empty(),
        "remove these entries of STILL_HOLD_JAVASCRIPT, they hold no JavaScript: {stale:?}"
    );
}

#[test]
fn javascript_is_found_in_literals_and_not_in_comments_or_messages() {
    let text = "// await page.goto('/');\n\
                fn a() -> &'static str { \"the page.\" }\n\
                fn b() -> String { format!(\"await {x}.click();\") }\n\
                const C: &str = r#\"expect(page.getByRole('x'))\"#;\n\
                fn d() -> &'static str { \"page.locator\" }\n\
                fn e() -> String { format!(\"{}.click();\", x) }\n\
                fn f() -> String { format!(\"{base}.getByRole({})\", r) }\n\
                fn g() -> String { format!(\"page.{}\", call) }\n\
                fn h() -> &'static str { \"e.g. the list (one item).\" }\n\
                #[cfg(test)]\n\
                mod tests { const T: &str = \"await page.reload();\"; }\n";
    assert_eq!(
        javascript_lines(text, &api_method_names()),
        [3, 4, 5, 6, 7, 8]
    );
}
