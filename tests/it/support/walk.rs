//! [`Walk`]: a Markdown document run as a shell session, so that its commands and the outputs it
//! shows cannot drift from what prettyplay does.
//!
//! Every ```` ```console ```` block is a session: each `$ ` line is a command, run with bash in
//! the walk's working directory, and the lines up to the next command are the output it must
//! print. Every ```` ```sh ```` block is a script that must exit 0. Other blocks (`text`, `toml`)
//! are read only when a directive says what they are. Directives are HTML comments, invisible
//! where the document is rendered, on lines before the block they apply to:
//!
//! - `<!-- walk: skip REASON -->`: the block is not run; the reason is printed in the summary.
//! - `<!-- walk: file PATH -->` / `<!-- walk: append PATH -->`: the block's text is written to,
//!   or appended to, `PATH` in the working directory.
//! - `<!-- walk: output-of COMMAND -->`: the block is the output of `COMMAND`.
//! - `<!-- walk: exit N -->`: the block's commands exit `N` (0 by default).
//! - `<!-- walk: llm NAME -->`: the scripted LLM answers as the script `NAME` says.
//! - `<!-- walk: env K=V ... -->`: variables set for the block's commands only.
//!
//! Outputs are compared line by line after [`normalize`]: durations, token counts, dates and the
//! walk's own paths and ports differ from run to run, and which tests are under `slowest:`
//! depends on their durations. A line `...` in the document stands for any number of lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::PHASE_LIMIT;

/// One fenced block of the document with the directives before it.
#[derive(Debug)]
pub(crate) struct Block {
    /// The line of the opening fence (1-based).
    pub line: usize,
    /// The line of the closing fence (1-based).
    pub end: usize,
    /// The opening fence's indentation, which the body's lines share.
    pub indent: usize,
    pub lang: String,
    pub body: String,
    pub directives: Vec<Directive>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Directive {
    Skip(String),
    File(String),
    Append(String),
    OutputOf(String),
    Exit(i32),
    Llm(String),
    Env(Vec<(String, String)>),
}

/// The fenced blocks of `markdown`, with their directives.
pub(crate) fn blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut pending = Vec::new();
    let mut lines = markdown.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let trimmed = line.trim_start();
        if let Some(directive) = trimmed
            .strip_prefix("<!-- walk:")
            .and_then(|rest| rest.trim_end().strip_suffix("-->"))
        {
            pending.push(parse_directive(directive.trim(), n + 1));
            continue;
        }
        let Some(lang) = trimmed.strip_prefix("```") else {
            continue;
        };
        let indent = line.len() - trimmed.len();
        let mut body = String::new();
        let mut end = n + 1;
        for (m, inner) in lines.by_ref() {
            end = m + 1;
            if inner.trim_start().starts_with("```") {
                break;
            }
            // The fence's indentation, as far as the line has it, is not the block's text.
            let own = inner.len() - inner.trim_start_matches(' ').len();
            body.push_str(&inner[own.min(indent)..]);
            body.push('\n');
        }
        blocks.push(Block {
            line: n + 1,
            end,
            indent,
            lang: lang.trim().to_string(),
            body,
            directives: std::mem::take(&mut pending),
        });
    }
    assert!(
        pending.is_empty(),
        "walk directives after the last block: {pending:?}"
    );
    blocks
}

fn parse_directive(text: &str, line: usize) -> Directive {
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    let rest = rest.trim().to_string();
    match word {
        "skip" if !rest.is_empty() => Directive::Skip(rest),
        "file" => Directive::File(rest),
        "append" => Directive::Append(rest),
        "output-of" => Directive::OutputOf(rest),
        "exit" => Directive::Exit(rest.parse().expect("walk: exit N")),
        "llm" => Directive::Llm(rest),
        "env" => Directive::Env(
            rest.split_whitespace()
                .map(|pair| {
                    let (k, v) = pair.split_once('=').expect("walk: env K=V");
                    (k.to_string(), v.to_string())
                })
                .collect(),
        ),
        _ => panic!("line {line}: unknown walk directive {text:?}"),
    }
}

/// What a command printed and how it exited.
pub(crate) struct Ran {
    pub output: String,
    pub code: Option<i32>,
}

/// A shell session over one document: its working directory, its exported variables and the
/// text substitutions between the document and this machine.
pub(crate) struct Walk {
    /// Where `~` points: a directory of the walk's own.
    pub home: PathBuf,
    cwd: PathBuf,
    /// `export -p` of the session after its last command.
    state: PathBuf,
    /// Pairs of (text in the document, text on this machine), applied to commands and files
    /// one way and to outputs the other way.
    substitutions: Vec<(String, String)>,
    env: BTreeMap<String, String>,
    /// The directories prepended to PATH.
    path: Vec<PathBuf>,
    pub log: String,
}

impl Walk {
    pub(crate) fn new(home: PathBuf, cwd: PathBuf) -> Self {
        fs::create_dir_all(&home).expect("create the walk's home");
        fs::create_dir_all(&cwd).expect("create the walk's directory");
        let state = home.join(".walk-state");
        fs::write(&state, "").expect("write the walk's state");
        Self {
            home,
            cwd,
            state,
            substitutions: Vec::new(),
            env: BTreeMap::new(),
            path: Vec::new(),
            log: String::new(),
        }
    }

    /// Text `doc` in the document is `here` on this machine.
    pub(crate) fn substitute(&mut self, doc: &str, here: &str) {
        self.substitutions.push((doc.to_string(), here.to_string()));
    }

    pub(crate) fn env(&mut self, key: &str, value: &str) {
        self.env.insert(key.to_string(), value.to_string());
    }

    pub(crate) fn prepend_path(&mut self, dir: PathBuf) {
        self.path.push(dir);
    }

    fn to_here(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (doc, here) in &self.substitutions {
            text = text.replace(doc, here);
        }
        text
    }

    fn to_doc(&self, text: &str) -> String {
        let mut text = text.to_string();
        // Longest first, so that a path is replaced before a shorter path inside it.
        let mut pairs: Vec<_> = self.substitutions.iter().collect();
        pairs.sort_by_key(|(_, here)| std::cmp::Reverse(here.len()));
        for (doc, here) in pairs {
            text = text.replace(here.as_str(), doc);
        }
        text
    }

    /// Writes (or appends) `body` to `path` under the working directory.
    pub(crate) fn write(&self, path: &str, body: &str, append: bool) {
        let path = self.cwd.join(self.to_here(path));
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create the file's directory");
        }
        let body = self.to_here(body);
        let text = if append {
            let old = fs::read_to_string(&path).unwrap_or_default();
            format!("{old}\n{body}")
        } else {
            body
        };
        fs::write(&path, text).expect("write the walk's file");
    }

    /// Runs one command with bash in the session, with `extra` variables, and keeps the working
    /// directory and exported variables it leaves for the next command.
    pub(crate) fn run(&mut self, command: &str, extra: &[(String, String)]) -> Ran {
        self.run_bash(command, extra, false)
    }

    /// Runs a script as [`Walk::run`] does, stopping at its first command that fails (`set
    /// -e`), so that a script is judged by every command and not by its last one.
    pub(crate) fn run_script(&mut self, script: &str, extra: &[(String, String)]) -> Ran {
        self.run_bash(script, extra, true)
    }

    fn run_bash(&mut self, script: &str, extra: &[(String, String)], stop_on_error: bool) -> Ran {
        let script = self.to_here(script);
        // The block's own variables are not kept for the next command.
        let unset: String = extra.iter().map(|(k, _)| format!("unset {k}\n")).collect();
        // The state is saved on every way out, `set -e`'s included.
        let wrapped = format!(
            "source {state} 2>/dev/null\ncd {cwd} || exit 97\n\
             __save() {{\n__rc=$?\n{unset}\
             {{ export -p; printf 'cd %q\\n' \"$PWD\"; }} > {state}.next\nexit $__rc\n}}\n\
             trap __save EXIT\n{set_e}{script}\n",
            state = shell_quote(&self.state),
            cwd = shell_quote(&self.cwd),
            set_e = if stop_on_error { "set -e\n" } else { "" },
        );
        let mut path = self
            .path
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>();
        path.push(std::env::var("PATH").unwrap_or_default());
        let mut command = Command::new("bash");
        command
            .arg("-c")
            .arg(&wrapped)
            .env("HOME", &self.home)
            .env("PATH", path.join(":"))
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("FORCE_COLOR")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, _) in std::env::vars_os() {
            if key
                .to_str()
                .is_some_and(|k| k.starts_with("PRETTYPLAY_") && k != "PRETTYPLAY_DRIVER_DIR")
            {
                command.env_remove(&key);
            }
        }
        command.envs(&self.env).envs(extra.iter().cloned());
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().expect("start bash");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let out = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stdout.read_to_string(&mut text);
            text
        });
        let err = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait for bash") {
                break status;
            }
            if started.elapsed() > PHASE_LIMIT {
                // SAFETY: kill(2) on the process group this test started.
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                panic!("walk: `{script}` ran past {PHASE_LIMIT:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let stdout = out.join().expect("stdout reader");
        let stderr = err.join().expect("stderr reader");
        let next = self.state.with_extension("next");
        if let Ok(text) = fs::read_to_string(&next) {
            if let Some(dir) = text
                .lines()
                .rev()
                .find_map(|l| l.strip_prefix("cd "))
                .and_then(shell_unquote)
            {
                self.cwd = PathBuf::from(dir);
            }
            fs::write(&self.state, text).expect("keep the walk's state");
        }
        let output = self.to_doc(&format!("{stdout}{stderr}"));
        let _ = writeln!(
            self.log,
            "$ {}\n{}[exit {:?}]",
            self.to_doc(&script),
            output,
            status.code()
        );
        Ran {
            output,
            code: status.code(),
        }
    }
}

fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

/// The directory `printf %q` wrote, for the plain paths a walk uses.
fn shell_unquote(text: &str) -> Option<String> {
    let text = text.trim();
    let unescaped = text.replace("\\ ", " ");
    (!unescaped.contains('\\') && !unescaped.starts_with('$')).then_some(unescaped)
}

/// `text` as comparable lines: durations, token counts and dates are replaced by placeholders,
/// trailing spaces and the padding of columns go, the lines under `slowest:` say only that
/// a test is there, and a step's timing-margin warning goes.
pub(crate) fn normalize(text: &str) -> Vec<String> {
    // A step is told it waited most of its timeout when the machine is slow, so whether the
    // line appears says how busy the machine was, not what the document claims.
    let margin = regex::Regex::new(
        r"^WARNING .*: step \d+ .*: waited \S+ s of \S+ s \(.*\): (replay|a slower run) may time out; raise ",
    )
    .expect("a regex");
    let duration = regex::Regex::new(r"\b\d+(\.\d+)?(ms|s)\b").expect("a regex");
    let tokens = regex::Regex::new(r"\b\d+ tokens\b").expect("a regex");
    let date = regex::Regex::new(r"\b\d{4}-\d{2}-\d{2}(T[0-9:.]+Z)?\b").expect("a regex");
    let clock = regex::Regex::new(r"\b\d+:\d{2}\.\d{3}\b").expect("a regex");
    let spaces = regex::Regex::new(r"(\S)  +").expect("a regex");
    let mut lines: Vec<String> = text
        .lines()
        .filter(|line| !margin.is_match(line))
        .map(|line| {
            let line = duration.replace_all(line.trim_end(), "<t>");
            let line = tokens.replace_all(&line, "<n> tokens");
            let line = date.replace_all(&line, "<date>");
            let line = clock.replace_all(&line, "<clock>");
            // Columns padded to the width of a duration move with it.
            spaces.replace_all(&line, "$1 ").into_owned()
        })
        .collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] == "slowest:" {
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && lines[end].starts_with("  ") {
                end += 1;
            }
            // Which tests are the slowest differs from run to run; how many are listed does not.
            for line in &mut lines[start..end] {
                *line = "  <a slow test>".to_string();
            }
            i = end;
        } else {
            i += 1;
        }
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Whether `actual` matches `expected`, where a line `...` in `expected` matches any number of
/// lines.
pub(crate) fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line == first && matches(rest, more)),
    }
}

/// The console block's commands, each with the output the document shows for it.
pub(crate) fn sessions(body: &str) -> Vec<(String, String)> {
    let mut sessions: Vec<(String, String)> = Vec::new();
    for line in body.lines() {
        if let Some(command) = line.strip_prefix("$ ") {
            sessions.push((command.to_string(), String::new()));
        } else if let Some((_, output)) = sessions.last_mut() {
            output.push_str(line);
            output.push('\n');
        } else {
            panic!("a console block's output before its first `$ ` command: {line:?}");
        }
    }
    sessions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_timing_margin_warning_is_left_out_and_other_warnings_kept() {
        let run = "Running 1 test\nWARNING scenarios/a.steps › t: step 2 \"add \"x\"\" (healed): waited \
                   6.2 s of 5 s (the `press` call, counting 5.4 s the page went on loading while \
                   the code was written): replay may time out; raise [browser] timeout or write \
                   \"wait until … appears\" before it\nWARNING something else\nPASS t (1.00s)";
        assert_eq!(
            normalize(run),
            ["Running 1 test", "WARNING something else", "PASS t (<t>)"]
        );
    }

    #[test]
    fn an_ellipsis_matches_any_run_of_lines() {
        let expected = lines("a\n...\nd");
        assert!(matches(&expected, &lines("a\nd")));
        assert!(matches(&expected, &lines("a\nb\nc\nd")));
        assert!(!matches(&expected, &lines("a\nb\nc")));
        assert!(!matches(&lines("a\nb"), &lines("a\nc")));
    }

    #[test]
    fn durations_and_tokens_are_normalized_and_slowest_sorted() {
        let text =
            "PASS x (1.04s)\nslowest:\n  0.5s b\n  1.2s a\nLLM: 5 request(s), 12 tokens in\n\n";
        assert_eq!(
            normalize(text),
            lines(
                "PASS x (<t>)\nslowest:\n  <a slow test>\n  <a slow test>\n\
                 LLM: 5 request(s), <n> tokens in"
            )
        );
        assert_eq!(
            normalize("    1. 0:00.015  Navigate       236ms"),
            lines("    1. <clock> Navigate <t>")
        );
    }

    #[test]
    fn directives_attach_to_the_next_block() {
        let doc = "<!-- walk: skip needs the network -->\n```sh\ncurl x\n```\n\
                   text\n<!-- walk: append a.toml -->\n  ```toml\n  [x]\n  ```\n";
        let blocks = blocks(doc);
        assert_eq!(blocks.len(), 2);
        assert_eq!(
            blocks[0].directives,
            [Directive::Skip("needs the network".into())]
        );
        assert_eq!(blocks[1].directives, [Directive::Append("a.toml".into())]);
        assert_eq!(blocks[1].body, "[x]\n");
        assert_eq!(blocks[1].line, 7);
        // A line less indented than its fence keeps all of its text.
        assert_eq!(
            super::blocks("  ```text\n  a\n bc\n  ```\n")[0].body,
            "a\nbc\n"
        );
    }

    #[test]
    fn a_script_fails_at_its_first_failing_command_and_the_session_keeps_its_directory() {
        let root = tempfile::tempdir().expect("a temporary directory");
        let home = root.path().join("home");
        let mut walk = Walk::new(home.clone(), home.clone());
        let ran = walk.run_script("mkdir sub && cd sub\nexport KEPT=yes\nfalse\ntrue", &[]);
        assert_eq!(ran.code, Some(1));
        let ran = walk.run("pwd; echo $KEPT", &[("GONE".into(), "x".into())]);
        assert_eq!(ran.output, format!("{}\nyes\n", home.join("sub").display()));
        assert_eq!(walk.run("echo \"[$GONE]\"", &[]).output, "[]\n");
    }
}
