//! `prettyplay init`: a new project in a directory, never overwriting anything. It writes a
//! commented `prettyplay.toml`, an example scenario with its proven step code in `cache/` (so
//! `prettyplay replay --strict` passes at once), `.gitignore` entries for what runs produce, and a
//! GitHub Actions workflow.
//!
//! Entry point: [`init`].

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::cache::{Cache, StepKey};
use crate::error::Error;
use crate::scenario;

/// The example scenario: it needs no server (its page is a `data:` URL), so the first replay
/// passes anywhere.
const EXAMPLE_STEPS: &str = "\
# An example test. Replace it with your own: one sentence per step, indented under `test:`.
# `prettyplay run` writes the code of a step that has none (the built-in generator, or the LLM
# of [llm] for sentences it declines) and caches it in cache/ once it worked on the page;
# `prettyplay replay --strict` (CI) runs the cached code only.
test: the example page greets you @example
  open the example page
  the heading says \"Hello, prettyplay\"
";

/// The proven code of the example's steps, in order.
const EXAMPLE_CODE: [&str; 2] = [
    "async function step(page) {\n  await page.goto('data:text/html,<title>example</title><h1>Hello, prettyplay</h1>');\n}",
    "async function step(page) {\n  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, prettyplay');\n}",
];

const CONFIG: &str = r#"# prettyplay's settings. Every key is optional; see docs/configuration.md.
# Precedence: command-line flags > PRETTYPLAY_* environment variables > this file > defaults.

# Where `*.steps` files are looked for when no path is given on the command line.
scenarios = "scenarios"
# The step cache: one TOML file of proven step code per scenario. Commit it and review it.
cache_dir = "cache"

[browser]
# Your app's address, so that step code can `page.goto('/')`.
# base_url = "http://127.0.0.1:3000"
headless = true
# Timeout of actions and expectations, in seconds.
timeout = 5

# An LLM is optional. Without one, `prettyplay run` writes code with the built-in generator
# alone and fails the steps it declines; with one, the LLM writes those steps' code and gives
# verdicts on failures. The key is read from the environment variable named by api_key_env,
# never from this file.
# [llm]
# provider = "openai"            # or "anthropic"; "openai" also speaks to Ollama, vLLM, llama.cpp
# model = "gpt-4.1-mini"
# api_key_env = "OPENAI_API_KEY"
# base_url = "http://127.0.0.1:11434/v1"   # a local Ollama, for instance

# The app server prettyplay starts before the tests and stops after them.
# [web_server]
# command = "npm run start"
# url = "http://127.0.0.1:3000"
# timeout = 60
"#;

/// What a run produces and nobody commits.
const IGNORED: [&str; 4] = ["prettyplay-report/", ".prettyplay/", "cache/.lock", ".env"];

/// The GitHub Actions workflow; docs/ci.md shows the same text (a test keeps them equal).
const WORKFLOW: &str = r#"# prettyplay in CI: replays the committed step code (never an LLM) in two shards, in Debian 13
# with Debian's Chromium and the pinned Playwright driver, both installed by `prettyplay install`
# (no browser download). Each shard keeps a report blob; the merge job makes one JUnit and one
# HTML report of them. See docs/ci.md of prettyplay for GitLab CI and more shards.
name: prettyplay
on: [push, pull_request]
jobs:
  replay:
    runs-on: ubuntu-latest
    container: rust:1-trixie        # Debian 13 as root: chromium and Node.js 20 from apt
    strategy:
      fail-fast: false
      matrix:
        shard: ["1/2", "2/2"]
    env:
      PRETTYPLAY_VERSION: "0.1.0"
      PRETTYPLAY_GIT: https://github.com/prettyplay/prettyplay
      # The driver comes from `prettyplay install` (npm): no build script downloads one.
      PLAYWRIGHT_SKIP_DRIVER_DOWNLOAD: "1"
    steps:
      - uses: actions/checkout@v4
      - name: Cache the Playwright driver and prettyplay
        uses: actions/cache@v4
        with:
          path: |
            ~/.cache/prettyplay/driver
            ~/.prettyplay-bin
          key: prettyplay-${{ env.PRETTYPLAY_VERSION }}-driver-1.64.0-rust-1-trixie
      - name: Install prettyplay (from crates.io, else the release tag of its repository)
        run: |
          test -x ~/.prettyplay-bin/bin/prettyplay ||
            cargo install --locked --version "$PRETTYPLAY_VERSION" --root ~/.prettyplay-bin prettyplay ||
            cargo install --locked --git "$PRETTYPLAY_GIT" --tag "v$PRETTYPLAY_VERSION" --root ~/.prettyplay-bin prettyplay
          echo ~/.prettyplay-bin/bin >> "$GITHUB_PATH"
      - name: Install Chromium, Node.js and the Playwright driver (apt and npm; no browser download)
        run: ~/.prettyplay-bin/bin/prettyplay install --with-deps chromium
      - name: Replay the tests
        # Secrets your scenarios read as ${NAME}, e.g.:
        # env:
        #   PASSWORD: ${{ secrets.PASSWORD }}
        run: prettyplay replay --strict --shard ${{ matrix.shard }} --reporter list --reporter blob
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: prettyplay-blob-${{ strategy.job-index }}
          path: prettyplay-report/blob/
          retention-days: 1
  merge:
    needs: replay
    if: always()
    runs-on: ubuntu-latest
    container: rust:1-trixie
    env:
      PRETTYPLAY_VERSION: "0.1.0"
      PRETTYPLAY_GIT: https://github.com/prettyplay/prettyplay
      # The driver comes from `prettyplay install` (npm): no build script downloads one.
      PLAYWRIGHT_SKIP_DRIVER_DOWNLOAD: "1"
    steps:
      - name: Restore prettyplay (cached by the replay jobs)
        uses: actions/cache@v4
        with:
          path: |
            ~/.cache/prettyplay/driver
            ~/.prettyplay-bin
          key: prettyplay-${{ env.PRETTYPLAY_VERSION }}-driver-1.64.0-rust-1-trixie
      - name: Install prettyplay (from crates.io, else the release tag of its repository)
        run: |
          test -x ~/.prettyplay-bin/bin/prettyplay ||
            cargo install --locked --version "$PRETTYPLAY_VERSION" --root ~/.prettyplay-bin prettyplay ||
            cargo install --locked --git "$PRETTYPLAY_GIT" --tag "v$PRETTYPLAY_VERSION" --root ~/.prettyplay-bin prettyplay
          echo ~/.prettyplay-bin/bin >> "$GITHUB_PATH"
      - uses: actions/download-artifact@v4
        with:
          pattern: prettyplay-blob-*
          path: blobs
      - name: Merge the shards' reports
        run: prettyplay merge-reports blobs --reporter list --reporter junit --reporter html
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: prettyplay-report
          path: prettyplay-report/
"#;

/// What `init` did with one path.
enum Made {
    Created(PathBuf),
    Kept(PathBuf),
    Appended(PathBuf),
}

/// Creates a project in `dir` and tells `out` what it made and what to do next.
pub(crate) fn init(dir: &Path, out: &mut dyn Write) -> Result<(), Error> {
    let mut made = Vec::new();
    let write_new = |rel: &str, text: &str, made: &mut Vec<Made>| -> Result<(), Error> {
        let path = dir.join(rel);
        made.push(create_new(&path, text).map_err(|e| init_error(&path, &e))?);
        Ok(())
    };
    write_new("prettyplay.toml", CONFIG, &mut made)?;
    let example = "scenarios/example.steps";
    let example_made = create_new(&dir.join(example), EXAMPLE_STEPS)
        .map_err(|e| init_error(&dir.join(example), &e))?;
    let fresh_example = matches!(example_made, Made::Created(_));
    made.push(example_made);
    let cache_dir = dir.join("cache");
    fs::create_dir_all(&cache_dir).map_err(|e| init_error(&cache_dir, &e))?;
    let example_cache = Cache::new(&cache_dir).file_path(example);
    if fresh_example && !example_cache.exists() {
        made.push(cache_example(dir, example)?);
    } else if example_cache.exists() {
        made.push(Made::Kept(example_cache));
    }
    made.push(
        ignore(&dir.join(".gitignore")).map_err(|e| init_error(&dir.join(".gitignore"), &e))?,
    );
    write_new(".github/workflows/prettyplay.yml", WORKFLOW, &mut made)?;
    report(dir, &made, out).map_err(Error::Output)
}

/// Writes the example's proven code through the cache, as a run would have.
fn cache_example(dir: &Path, example: &str) -> Result<Made, Error> {
    let scenarios = scenario::load(dir, &[dir.join(example)]).map_err(Error::Scenario)?;
    let cache = Cache::new(dir.join("cache"));
    let today = Cache::today();
    for scenario in &scenarios {
        for test in &scenario.tests {
            for (step, code) in test.steps.iter().zip(EXAMPLE_CODE) {
                cache
                    .put(scenario, &StepKey::of(scenario, test, step), code, &today)
                    .map_err(Error::Cache)?;
            }
        }
    }
    Ok(Made::Created(cache.file_path(example)))
}

/// Creates `path` (and its directory) with `text`, unless it exists.
fn create_new(path: &Path, text: &str) -> io::Result<Made> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(mut file) => {
            file.write_all(text.as_bytes())?;
            Ok(Made::Created(path.to_owned()))
        }
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => Ok(Made::Kept(path.to_owned())),
        Err(err) => Err(err),
    }
}

/// Adds the [`IGNORED`] entries `.gitignore` lacks (creating it when there is none).
fn ignore(path: &Path) -> io::Result<Made> {
    let existing = match fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(err) => return Err(err),
    };
    let text = existing.as_deref().unwrap_or_default();
    let listed = |entry: &str| {
        text.lines()
            .any(|line| line.trim().trim_end_matches('/') == entry.trim_end_matches('/'))
    };
    let missing: Vec<&str> = IGNORED.into_iter().filter(|e| !listed(e)).collect();
    if missing.is_empty() {
        return Ok(Made::Kept(path.to_owned()));
    }
    let mut file = fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    let mut added = String::new();
    if !text.is_empty() && !text.ends_with('\n') {
        added.push('\n');
    }
    added.push_str("# prettyplay: reports, run state, the cache lock and secrets\n");
    for entry in missing {
        added.push_str(entry);
        added.push('\n');
    }
    file.write_all(added.as_bytes())?;
    Ok(match existing {
        Some(_) => Made::Appended(path.to_owned()),
        None => Made::Created(path.to_owned()),
    })
}

fn init_error(path: &Path, err: &io::Error) -> Error {
    Error::Output(io::Error::new(
        err.kind(),
        format!("could not write {}: {err}", path.display()),
    ))
}

fn report(dir: &Path, made: &[Made], out: &mut dyn Write) -> io::Result<()> {
    let rel = |path: &Path| {
        let shown = path.strip_prefix(dir).unwrap_or(path).display().to_string();
        crate::report::visible_text(&shown).into_owned()
    };
    for item in made {
        match item {
            Made::Created(path) => writeln!(out, "created  {}", rel(path))?,
            Made::Appended(path) => {
                writeln!(out, "updated  {} (added the report directories)", rel(path))?
            }
            Made::Kept(path) => {
                writeln!(out, "kept     {} (it exists; not overwritten)", rel(path))?
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "next:")?;
    writeln!(
        out,
        "  prettyplay replay --strict     replay the example (no LLM)"
    )?;
    writeln!(
        out,
        "  edit prettyplay.toml           set [browser] base_url (and [web_server]) for your app"
    )?;
    writeln!(
        out,
        "  prettyplay run                 write tests in scenarios/*.steps; run writes their code with the\n                                 built-in generator, or with the LLM of [llm] where it declines"
    )?;
    writeln!(out, "  commit cache/ and review it like test code")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_entries_are_added_once_and_nothing_else_is_touched() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(".gitignore");
        fs::write(&path, "target/\n.prettyplay\n").expect("write");
        assert!(matches!(ignore(&path).expect("ignore"), Made::Appended(_)));
        assert_eq!(
            fs::read_to_string(&path).expect("read"),
            "target/\n.prettyplay\n# prettyplay: reports, run state, the cache lock and \
             secrets\nprettyplay-report/\ncache/.lock\n.env\n"
        );
        assert!(matches!(ignore(&path).expect("again"), Made::Kept(_)));
    }

    #[test]
    fn the_workflow_pins_this_driver_and_this_version_and_installs_through_prettyplay() {
        let driver = crate::driver::DRIVER_VERSION;
        assert!(WORKFLOW.contains(&format!("driver-{driver}-")));
        let version = env!("CARGO_PKG_VERSION");
        assert!(WORKFLOW.contains(&format!("PRETTYPLAY_VERSION: \"{version}\"")));
        // The repository named in Cargo.toml, at the release's tag, until crates.io has it.
        let repository = env!("CARGO_PKG_REPOSITORY");
        assert!(WORKFLOW.contains(&format!("PRETTYPLAY_GIT: {repository}\n")));
        assert!(WORKFLOW.contains("--git \"$PRETTYPLAY_GIT\" --tag \"v$PRETTYPLAY_VERSION\""));
        assert_eq!(
            WORKFLOW
                .matches("prettyplay install --with-deps chromium")
                .count(),
            1,
            "the replay job installs the browser and the driver; the merge job needs neither"
        );
        assert!(
            !WORKFLOW.contains("npm install"),
            "prettyplay install runs npm"
        );
        assert!(!WORKFLOW.contains('\t'), "YAML takes no tabs");
    }

    #[test]
    fn docs_ci_md_shows_this_very_workflow() {
        let ci = include_str!("../../docs/ci.md");
        let shown = format!("```yaml\n# .github/workflows/prettyplay.yml\n{WORKFLOW}```");
        assert!(
            ci.contains(&shown),
            "docs/ci.md's GitHub recipe is not WORKFLOW"
        );
    }

    #[test]
    fn the_workflow_merges_the_shards_blobs_in_one_job() {
        assert!(WORKFLOW.contains("--reporter blob"));
        assert!(WORKFLOW.contains("path: prettyplay-report/blob/"));
        assert!(WORKFLOW.contains("needs: replay"));
        assert!(WORKFLOW.contains("pattern: prettyplay-blob-*"));
        assert!(WORKFLOW.contains(
            "prettyplay merge-reports blobs --reporter list --reporter junit --reporter html"
        ));
    }

    #[test]
    fn an_existing_file_is_kept_as_it_is() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("prettyplay.toml");
        fs::write(&path, "# mine\n").expect("write");
        assert!(matches!(
            create_new(&path, CONFIG).expect("create"),
            Made::Kept(_)
        ));
        assert_eq!(fs::read_to_string(&path).expect("read"), "# mine\n");
    }

    #[test]
    fn the_config_template_is_valid_settings() {
        let parsed: toml::Table = toml::from_str(CONFIG).expect("valid TOML");
        assert!(parsed.contains_key("browser"));
    }
}
