//! `prettyplay explain "SENTENCE" [--url URL] [--execute]`: what the built-in generator writes
//! for a sentence on a page, or why it declines and which rewrites it would read — for writing
//! sentences it reads. (`explain FILE:LINE`, a step of a test, is in `explain_at.rs`.) One page is
//! opened in the browser `run` would use (the same settings, `[browser] allowed_origins`
//! included, and the `[web_server]`s started), its AI-mode aria snapshot taken as the engine
//! takes it, and the generator's answer printed.
//!
//! Main entry point: [`explain`].

use std::collections::BTreeMap;
use std::io::Write;

use url::Url;

use crate::cli::args::ExplainArgs;
use crate::cli::explain_try::{Rewrites, Trial, first_line, try_rewrites};
use crate::cli::{env_var, masked_for_stderr};
use crate::config::{Settings, Vars};
use crate::driver::{
    BrowserRuntime, BrowserTarget, CallError, SavedState, TestPage, WorkerBrowser,
    export_driver_env, find_driver, withhold_from_driver,
};
use crate::error::{EXIT_SUCCESS, EXIT_TEST_FAILED, Error};
use crate::llm::key_variables;
use crate::report::Visible;
use crate::scenario::StepArgument;
use crate::script::{Limits, StepFailure};
use crate::secrets::Secrets;
use crate::step::{LivePage, SettleWindow, StepExecutor};
use crate::stop_signal;
use crate::web_server::{WebServers, kill_all_now};
use crate::writer::{Explanation, explain as explain_sentence};

/// What came of explaining a sentence on a page, before it is printed.
pub(super) struct Outcome {
    /// The page the sentence was explained on.
    pub url: String,
    /// Its snapshot, as the generator read it.
    pub snapshot: String,
    pub explanation: Explanation,
    /// For a declined sentence, the rewrites the generator reads on this page: those that
    /// passed and were proven there (`try:` lines), and the others, with why.
    pub rewrites: Rewrites,
    /// `--execute`: how the written code did on the page.
    pub executed: Option<Result<(), StepFailure>>,
}

impl Outcome {
    /// The exit code: 0 for code (that passed, with `--execute`), 1 for a decline or a failed
    /// run.
    pub(super) fn exit_code(&self) -> u8 {
        match (&self.explanation.code, &self.executed) {
            (Ok(_), None | Some(Ok(()))) => EXIT_SUCCESS,
            _ => EXIT_TEST_FAILED,
        }
    }
}

/// Opens the page, explains the sentence on it, prints the answer to `out` and answers the
/// exit code: 0 for code (that passed, with `--execute`), 1 for a decline or a failed run.
pub(crate) fn explain(
    settings: &Settings,
    args: &ExplainArgs,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<u8, Error> {
    let url = page_url(args.url.as_deref(), settings.browser.base_url.as_deref())?;
    // Step code reads `${NAME}` as `vars.NAME`: only `--execute` needs their values.
    let names: Vec<&str> = crate::scenario::variables(&args.sentence)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let vars = Vars::resolve(
        &settings.vars,
        &settings.project_root,
        &|name| env_var(name),
        names.iter().copied(),
    )?;
    if args.execute
        && let Some(name) = names.iter().find(|name| !vars.has(name))
    {
        return Err(Error::Usage(format!(
            "${{{name}}} has no value: set it in [vars], .env or the environment to --execute \
             the code"
        )));
    }
    let secrets = vars.secrets();
    crate::cli::mask_stderr(&secrets);
    let outcome = with_browser(settings, vars.values(), &url, |pages| {
        // An action rewrite is tried on a page of its own, opened at the same URL.
        let trial = |code: &str| {
            pages
                .on_page(None, |fresh, _| {
                    Ok(open(fresh, settings, &url)
                        .map_err(|err| err.to_string())
                        .and_then(|()| run_trial(fresh, settings, None, code)))
                })
                .unwrap_or_else(|err| Err(err.to_string()))
        };
        pages.on_page(None, |live, _| {
            explain_on(live, settings, args, &url, &trial)
        })
    })?;
    print(&outcome, verbose, &secrets, out).map_err(Error::Output)?;
    Ok(outcome.exit_code())
}

/// The page to open: `--url` (absolute, or relative to the base URL), else the base URL.
fn page_url(url: Option<&str>, base_url: Option<&str>) -> Result<String, Error> {
    let no_base = |what: &str| {
        Error::Usage(format!(
            "{what} needs a base URL: set [browser] base_url (or a [web_server] url) in \
             prettyplay.toml, or pass --base-url"
        ))
    };
    let base = base_url
        .map(|base| {
            Url::parse(base)
                .map_err(|err| Error::Usage(format!("the base URL {base} is not a URL: {err}")))
        })
        .transpose()?;
    match (url, base) {
        (None, None) => Err(no_base("explain without --url")),
        (None, Some(base)) => Ok(base.to_string()),
        (Some(url), base) => match (Url::parse(url), base) {
            (Ok(absolute), _) => Ok(absolute.to_string()),
            (Err(url::ParseError::RelativeUrlWithoutBase), Some(base)) => base
                .join(url)
                .map(|joined| joined.to_string())
                .map_err(|err| Error::Usage(format!("--url {url} is not a URL: {err}"))),
            (Err(url::ParseError::RelativeUrlWithoutBase), None) => {
                Err(no_base(&format!("--url {url}")))
            }
            (Err(err), _) => Err(Error::Usage(format!("--url {url} is not a URL: {err}"))),
        },
    }
}

/// Starts the web servers, the driver and one browser, lets `work` open pages in it (see
/// [`Pages`]) whose step code reads `vars` (names and values), and closes everything again.
/// `opening` names what a page is opened for in the error of a page that cannot be set up.
pub(super) fn with_browser<T>(
    settings: &Settings,
    vars: BTreeMap<String, String>,
    opening: &str,
    work: impl FnOnce(&Pages<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    let driver = find_driver(&env_var)?;
    let target = BrowserTarget::find(&settings.browser, &settings.sources, &env_var)?;
    let driver_env = export_driver_env(&driver);
    // No LLM is asked here, but its key must not reach the driver and Chromium either.
    let _keys = withhold_from_driver(&key_variables(&settings.llm));
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let cancel = std::sync::atomic::AtomicBool::new(false);
    install_interrupt_handler();
    let web_servers = WebServers::start(
        &settings.web_servers,
        &driver_env,
        tokio.handle(),
        &cancel,
        None,
    )?;
    let runtime = tokio
        .block_on(BrowserRuntime::start(
            &settings.browser,
            &driver,
            target,
            tokio.handle(),
        ))
        .map_err(|e| e.placed(&settings.sources))?;
    let handle = tokio.handle();
    let explained = handle
        .block_on(runtime.launch_browser())
        .map_err(Error::from)
        .and_then(|browser| {
            let pages = Pages {
                browser: &browser,
                handle,
                settings,
                vars,
                opening,
            };
            let done = work(&pages);
            handle.block_on(browser.close());
            done
        });
    tokio.block_on(runtime.shutdown());
    for warning in web_servers.stop() {
        tracing::warn!("{}", masked_for_stderr(&warning));
    }
    explained
}

/// The browser of [`with_browser`], which opens pages whose step code reads the same vars.
pub(super) struct Pages<'a> {
    browser: &'a WorkerBrowser,
    handle: &'a tokio::runtime::Handle,
    settings: &'a Settings,
    vars: BTreeMap<String, String>,
    opening: &'a str,
}

impl Pages<'_> {
    /// Opens a blank page (in a context that starts from `state`, if any), does `work` on it
    /// and closes it however `work` ends. `work` gets the page too, to save its state.
    pub(super) fn on_page<T>(
        &self,
        state: Option<&SavedState>,
        work: impl FnOnce(&LivePage, &TestPage) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let handle = self.handle;
        let page = handle.block_on(self.browser.new_test_page(state))?;
        let closer = page.clone();
        let limits = Limits::new(self.settings.browser.timeout);
        let accessibility = crate::script::Accessibility::new(
            crate::driver::default_driver_dir(&crate::cli::env_var),
            self.settings.accessibility.accept.clone(),
        );
        let vars = self.vars.clone();
        let outcome = LivePage::open(limits, handle.clone(), page, vars, None, accessibility)
            .map_err(|failure| Error::Explain {
                url: self.opening.to_owned(),
                source: failure,
            })
            .and_then(|live| work(&live, &closer));
        handle.block_on(closer.close());
        outcome
    }

    /// The storage state of `page`'s context, as a setup test saves it.
    pub(super) fn save_state(&self, page: &TestPage) -> Result<SavedState, CallError> {
        self.handle.block_on(page.save_state())
    }
}

/// Goes to `url` on `live`'s page and explains the sentence there.
fn explain_on(
    live: &LivePage,
    settings: &Settings,
    args: &ExplainArgs,
    url: &str,
    trial: Trial<'_>,
) -> Result<Outcome, Error> {
    open(live, settings, url)?;
    Ok(explain_here(
        live,
        settings,
        &args.sentence,
        &[],
        args.execute,
        None,
        trial,
    ))
}

/// Goes to `url` on `live`'s page, once with no settle window: a page that does not load is
/// the answer.
fn open(live: &LivePage, settings: &Settings, url: &str) -> Result<(), Error> {
    let no_retry = |_: u32, _: &StepFailure| {};
    let js_url = serde_json::Value::String(url.to_owned()).to_string();
    let open = format!(
        "async function step(page) {{\n  const response = await page.goto({js_url});\n  \
         if (response && response.status() >= 400) {{\n    throw new Error(`HTTP \
         ${{response.status()}}`);\n  }}\n}}"
    );
    let exec = live.executor(SettleWindow::new(&settings.polling, Some(1)), &no_retry);
    exec.execute(&open).map_err(|failure| Error::Explain {
        url: url.to_owned(),
        source: failure,
    })
}

/// Runs a rewrite's `code` on `live`'s fresh page as a step runs: `Ok` when it passed and
/// reached no origin it may not, else the first line of why not.
pub(super) fn run_trial(
    live: &LivePage,
    settings: &Settings,
    argument: Option<&StepArgument>,
    code: &str,
) -> Result<(), String> {
    let no_retry = |_: u32, _: &StepFailure| {};
    let exec = live
        .executor(SettleWindow::new(&settings.polling, None), &no_retry)
        .with_argument(argument);
    exec.check(code)
        .and_then(|()| exec.execute(code))
        .and_then(|()| exec.kept_to_origins())
        .map_err(|failure| first_line(&failure).to_owned())
}

/// Explains `sentence` (of a test whose examples table has `columns`) on `live`'s page as it
/// is now, and with `execute` runs the written code there; `argument` is the step's Gherkin doc
/// string or data table. A declined sentence's rewrites are tried (see `explain_try.rs`), an
/// action's through `trial`.
pub(super) fn explain_here(
    live: &LivePage,
    settings: &Settings,
    sentence: &str,
    columns: &[String],
    execute: bool,
    argument: Option<&StepArgument>,
    trial: Trial<'_>,
) -> Outcome {
    let no_retry = |_: u32, _: &StepFailure| {};
    let exec = live.executor(SettleWindow::new(&settings.polling, Some(1)), &no_retry);
    // The engine reads the whole snapshot (no budget) for the built-in generator.
    let state = exec.page_state(false, usize::MAX);
    let explanation = explain_sentence(sentence, columns, &state.snapshot, &state.structure);
    let rewrites = match &explanation.code {
        Ok(_) => Rewrites::default(),
        Err(_) => try_rewrites(live, settings, sentence, columns, argument, &state, trial),
    };
    let executed = match (&explanation.code, execute) {
        (Ok(code), true) => {
            let exec = live
                .executor(SettleWindow::new(&settings.polling, None), &no_retry)
                .with_argument(argument);
            Some(exec.check(code).and_then(|()| exec.execute(code)))
        }
        _ => None,
    };
    Outcome {
        url: state.url,
        snapshot: state.snapshot,
        explanation,
        rewrites,
        executed,
    }
}

/// The code, or `declined: <why>` with a `try: <sentence>` line for each rewrite and the
/// candidates it weighed (the snapshot lines it matched); with `verbose`, the lines it matched
/// for code too (the whole snapshot when it matched none); with `--execute`, how the code did.
pub(super) fn print(
    outcome: &Outcome,
    verbose: bool,
    secrets: &Secrets,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    // The code quotes the sentence and the page, and the snapshot is the page's text: each is
    // escaped as every terminal line is.
    match &outcome.explanation.code {
        Ok(code) => writeln!(out, "{}", Visible(code))?,
        Err(why) => {
            writeln!(out, "declined: {}", Visible(why))?;
            for rewrite in &outcome.rewrites.offered {
                writeln!(out, "try: {}", Visible(rewrite))?;
            }
            // Only what passed and was proven is offered; what was read but failed is listed,
            // so that a wrong rewrite is never suggested and the reader still sees what was near.
            if outcome.rewrites.offered.is_empty() && !outcome.rewrites.seen.is_empty() {
                writeln!(
                    out,
                    "no rewrite to offer: the built-in generator reads these on the page, but \
                     none passed and was proven there:"
                )?;
                for seen in &outcome.rewrites.seen {
                    writeln!(
                        out,
                        "  {} ({})",
                        Visible(&seen.sentence),
                        Visible(&seen.why)
                    )?;
                }
            }
        }
    }
    let matched = &outcome.explanation.matched;
    let declined = outcome.explanation.code.is_err();
    if verbose || (declined && !matched.is_empty()) {
        if matched.is_empty() {
            writeln!(
                out,
                "\nno line of the snapshot of {} matched; the snapshot:",
                Visible(&outcome.url)
            )?;
            for line in outcome.snapshot.lines() {
                writeln!(out, "  {}", Visible(line))?;
            }
        } else {
            // Out of their tree, the lines go without its indentation.
            writeln!(
                out,
                "\nmatched in the snapshot of {}:",
                Visible(&outcome.url)
            )?;
            for line in matched {
                writeln!(out, "  {}", Visible(line.trim_start()))?;
            }
        }
    }
    match &outcome.executed {
        None => {}
        Some(Ok(())) => writeln!(out, "\nexecuted: passed")?,
        Some(Err(failure)) => writeln!(
            out,
            "\nexecuted: failed ({}): {}",
            failure.kind.as_str(),
            Visible(secrets.mask(&failure.message))
        )?,
    }
    Ok(())
}

/// Ctrl-C, SIGTERM and SIGHUP stop at once, with 128 + the signal's number; the web servers'
/// groups are killed first (no destructor runs).
fn install_interrupt_handler() {
    let installed = stop_signal::install(|signal, _| {
        kill_all_now();
        std::process::exit(i32::from(signal.exit_code()));
    });
    if let Err(err) = installed {
        tracing::warn!("Ctrl-C, SIGTERM and SIGHUP will stop prettyplay at once: {err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_is_the_base_url_a_path_joined_to_it_or_absolute() {
        let base = Some("http://127.0.0.1:3000/app/");
        assert_eq!(page_url(None, base).unwrap(), "http://127.0.0.1:3000/app/");
        assert_eq!(
            page_url(Some("/login.html"), base).unwrap(),
            "http://127.0.0.1:3000/login.html"
        );
        assert_eq!(
            page_url(Some("todo"), base).unwrap(),
            "http://127.0.0.1:3000/app/todo"
        );
        assert_eq!(
            page_url(Some("http://localhost:8080/x"), None).unwrap(),
            "http://localhost:8080/x"
        );
    }

    #[test]
    fn a_path_without_a_base_url_and_a_broken_url_are_usage_errors() {
        let err = page_url(Some("/login.html"), None).unwrap_err();
        assert_eq!(err.exit_code(), crate::error::EXIT_USAGE);
        assert!(
            err.to_string()
                .starts_with("--url /login.html needs a base URL")
        );
        let err = page_url(None, None).unwrap_err();
        assert!(err.to_string().starts_with("explain without --url needs"));
        let err = page_url(Some("http://[::1"), None).unwrap_err();
        assert!(err.to_string().contains("is not a URL"), "{err}");
    }
}
