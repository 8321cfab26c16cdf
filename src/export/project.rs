//! `prettyplay export --playwright DIR`: a Playwright Test project of the scenarios and their
//! cached code. It writes `package.json` (`@playwright/test` at the driver's version, and
//! `@axe-core/playwright` at the version of the axe-core prettyplay runs),
//! `playwright.config.ts` (the settings of prettyplay.toml, and the very Chromium prettyplay
//! launches, with its flags), `prettyplay.ts` (the helper the specs share) and one spec per
//! scenario (`scenarios/todo.steps` → `scenarios/todo.spec.ts`; its setup tests, which save a
//! state, in `scenarios/todo.setup.ts`, run first by a `setup` project), with each scenario's
//! screenshot baselines copied into its spec's snapshot directory.
//!
//! Main entry point: [`export_playwright`]. The mapping is documented in `docs/export.md`.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::sandbox_check::{OutsideUse, outside_use};
use super::spec::{HEADER, SpecContext, js, render_spec};
use crate::cache::{Baselines, Cache, CacheError, CacheFile, StepKey, slug};
use crate::config::{BrowserName, BrowserSettings};
use crate::config::{Screen, Settings};
use crate::driver::{AXE_VERSION, DRIVER_VERSION, FIREFOX_CHANNEL, chromium_launch_args};
use crate::scenario::{Scenario, Step};
use crate::script::{SandboxSurface, StepFailure, sandbox_surface};
use crate::visible::{Visible, visible};

/// The helper module every spec imports; `__ACCEPT_DIALOGS__` is filled in.
const HELPER: &str = include_str!("helper.ts");

/// Why the export stopped.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExportError {
    #[error("could not write {}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// A file of that name is there and prettyplay did not write it.
    #[error("{} exists and was not written by prettyplay export", .path.display())]
    NotOurs { path: PathBuf },
    #[error(transparent)]
    Cache(#[from] CacheError),
    /// A step's cached code uses what the sandbox does not give it, and the export was not
    /// told to allow that.
    #[error(
        "{file}:{line}: step \"{sentence}\": the cached code uses {what}, which prettyplay's \
         sandbox does not provide; exported code would run it with Node's privileges"
    )]
    Unsandboxed {
        file: String,
        line: usize,
        sentence: String,
        what: OutsideUse,
    },
    #[error("could not read the names the sandbox defines")]
    Surface(#[source] StepFailure),
}

impl ExportError {
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            ExportError::NotOurs { .. } => Some(
                "export into a new directory, or move the file away: prettyplay replaces only \
                 the files it wrote (they start with its header line)"
                    .to_owned(),
            ),
            ExportError::Unsandboxed { .. } => Some(
                "read the step's cached code: the export runs it in Node.js, without the \
                 sandbox; to export it anyway, pass --allow-unsandboxed (docs/export.md)"
                    .to_owned(),
            ),
            _ => None,
        }
    }
}

/// What the export needs of the machine: the executable of each browser prettyplay would
/// launch, in the order of `[browser] browsers`.
pub(crate) struct ExportTarget<'a> {
    pub dir: &'a Path,
    pub executables: &'a [PathBuf],
    /// Whether cached code may use what the sandbox does not give it (`--allow-unsandboxed`).
    pub allow_unsandboxed: bool,
}

/// Writes the project into `target.dir` and tells `out` each file it wrote.
pub(crate) fn export_playwright(
    settings: &Settings,
    scenarios: &[Scenario],
    target: &ExportTarget<'_>,
    out: &mut dyn Write,
) -> Result<usize, ExportError> {
    let dir = target.dir;
    let cache = Cache::new(&settings.cache_dir);
    let mut written = Vec::new();
    let mut has_setup = false;
    let mut specs = Vec::new();
    // Each spec with the baselines of its scenario, copied once the projects are known.
    let mut baselines = Vec::new();
    let surface = if target.allow_unsandboxed {
        None
    } else {
        Some(sandbox_surface().map_err(ExportError::Surface)?)
    };
    for scenario in scenarios {
        let file = cache.load(&scenario.rel_path)?;
        if let (Some(surface), Some(file)) = (&surface, &file) {
            check_sandboxed(scenario, file, surface)?;
        }
        let base = spec_base(&scenario.rel_path);
        let depth = base.matches('/').count();
        let helper = if depth == 0 {
            "./prettyplay".to_owned()
        } else {
            format!("{}prettyplay", "../".repeat(depth))
        };
        let context = SpecContext {
            cache: file.as_ref(),
            public_vars: &public_vars(settings),
            helper: &helper,
        };
        let (setups, others): (Vec<_>, Vec<_>) =
            scenario.tests.iter().partition(|t| t.saves.is_some());
        if !setups.is_empty() {
            has_setup = true;
            specs.push((
                format!("{base}.setup.ts"),
                render_spec(scenario, &setups, &context),
            ));
            baselines.push((format!("{base}.setup.ts"), &scenario.rel_path));
        }
        if !others.is_empty() {
            specs.push((
                format!("{base}.spec.ts"),
                render_spec(scenario, &others, &context),
            ));
            baselines.push((format!("{base}.spec.ts"), &scenario.rel_path));
        }
    }
    let browsers = &settings.browser.browsers;
    // Playwright Test names a baseline after its project only where the config has projects.
    let named_projects = browsers.len() > 1 || has_setup;
    let mut copies = Vec::new();
    for (spec, rel) in baselines {
        copies.extend(baseline_copies(
            &Baselines::of(&cache, rel),
            &spec,
            browsers,
            named_projects,
        )?);
    }
    let files = [
        ("package.json".to_owned(), package_json()),
        (
            "playwright.config.ts".to_owned(),
            config_ts(settings, target.executables, dir, has_setup),
        ),
        (
            "prettyplay.ts".to_owned(),
            HELPER
                .replace(
                    "__ACCEPT_DIALOGS__",
                    if settings.browser.accept_dialogs {
                        "true"
                    } else {
                        "false"
                    },
                )
                .replace("__ACCEPTED_RULES__", &accepted_rules(settings)),
        ),
    ];
    for (rel, text) in files.into_iter().chain(specs) {
        let path = dir.join(&rel);
        write_ours(&path, &text)?;
        written.push(rel);
    }
    for (rel, from) in copies {
        let path = dir.join(&rel);
        let error = |source| ExportError::Write {
            path: path.clone(),
            source,
        };
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(error)?;
        }
        fs::copy(&from, &path).map_err(error)?;
        written.push(rel);
    }
    for rel in &written {
        // A spec is named after its scenario file, whose name may hold control characters.
        writeln!(out, "wrote  {}", Visible(dir.join(rel).display())).map_err(|source| {
            ExportError::Write {
                path: PathBuf::from("stdout"),
                source,
            }
        })?;
    }
    Ok(written.len())
}

/// Fails on the first step of `scenario`, in file order, whose cached code uses what the
/// sandbox does not give it.
fn check_sandboxed(
    scenario: &Scenario,
    file: &CacheFile,
    surface: &SandboxSurface,
) -> Result<(), ExportError> {
    let background = scenario
        .background
        .iter()
        .map(|step| (step, StepKey::background(scenario, step)));
    let tests = scenario.tests.iter().flat_map(|test| {
        test.steps
            .iter()
            .map(move |step| (step, StepKey::of(scenario, test, step)))
    });
    let mut steps: Vec<(&Step, StepKey)> = background.chain(tests).collect();
    steps.sort_by_key(|(step, _)| step.line);
    for (step, key) in steps {
        let Some(cached) = file.get(&key) else {
            continue;
        };
        if let Some(what) = outside_use(&cached.code, surface) {
            return Err(ExportError::Unsandboxed {
                file: visible(&scenario.rel_path).into_owned(),
                line: step.line,
                sentence: visible(&step.sentence).into_owned(),
                what,
            });
        }
    }
    Ok(())
}

/// `scenarios/todo.steps` → `scenarios/todo`; a `.feature` keeps its extension in the name
/// (`scenarios/todo.feature`), so that a `.steps` and a `.feature` of one name stay apart. A
/// scenario outside the project (an absolute path) goes under `external/`.
fn spec_base(rel_path: &str) -> String {
    let rel = rel_path.trim_start_matches('/');
    let rel = if rel.len() == rel_path.len() {
        rel.to_owned()
    } else {
        format!("external/{rel}")
    };
    rel.strip_suffix(".steps")
        .map_or(rel.clone(), str::to_owned)
}

/// The `[vars]` values of prettyplay.toml that are not secrets.
fn public_vars(settings: &Settings) -> std::collections::BTreeMap<String, String> {
    settings
        .vars
        .values
        .iter()
        .filter(|(name, _)| !settings.vars.secret.contains(*name))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect()
}

/// `package.json`: Playwright Test at the driver's version, and `@axe-core/playwright` with the
/// very axe-core prettyplay injects (its version and @axe-core/playwright's are the same).
fn package_json() -> String {
    format!(
        "{{\n  \"//\": \"Written by `prettyplay export --playwright`. Install with \
         PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install (the config names the browser).\",\n  \
         \"private\": true,\n  \"scripts\": {{\n    \"test\": \"playwright test\"\n  }},\n  \
         \"devDependencies\": {{\n    \"@axe-core/playwright\": \"{AXE_VERSION}\",\n    \
         \"@playwright/test\": \"{DRIVER_VERSION}\",\n    \"axe-core\": \"{AXE_VERSION}\"\n  }}\n}}\n"
    )
}

/// `[accessibility] accept` as a TypeScript object literal: rule id → reason.
fn accepted_rules(settings: &Settings) -> String {
    let entries: Vec<String> = settings
        .accessibility
        .accept
        .iter()
        .map(|accepted| format!("{}: {}", js(&accepted.rule), js(&accepted.reason)))
        .collect();
    format!("{{ {} }}", entries.join(", "))
}

/// The baselines of `baselines` that the spec `spec` (its path in the project) compares with,
/// each as `(the copy's path in the project, the baseline)`: prettyplay's
/// `<test>-<step>[-<name>]-<browser>.png` of each browser of the export becomes Playwright
/// Test's `<spec>-snapshots/<test>-<step>[-<name>][-<project>]-<platform>.png`, the name its
/// default `snapshotPathTemplate` gives the name the exported `expect` passes.
fn baseline_copies(
    baselines: &Baselines,
    spec: &str,
    browsers: &[BrowserName],
    named_projects: bool,
) -> Result<Vec<(String, PathBuf)>, ExportError> {
    let dir = baselines.dir();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(ExportError::Write {
                path: dir.to_owned(),
                source,
            });
        }
    };
    let mut copies = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if !entry.file_type().is_ok_and(|kind| kind.is_file()) {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        for browser in browsers {
            let suffix = format!("-{}.png", slug(browser.as_str()));
            let Some(stem) = name.strip_suffix(&suffix) else {
                continue;
            };
            let project = if named_projects {
                format!("-{}", sanitize_for_file_path(browser.as_str()))
            } else {
                String::new()
            };
            let copy = format!(
                "{spec}-snapshots/{}{project}-{}.png",
                sanitize_for_file_path(stem),
                playwright_platform()
            );
            copies.push((copy, path.clone()));
        }
    }
    copies.sort();
    Ok(copies)
}

/// Playwright Test's `sanitizeForFilePath`: every run of ASCII punctuation, space or control
/// character but `-` becomes one `-`.
fn sanitize_for_file_path(text: &str) -> String {
    let unsafe_char = |c: char| c.is_ascii() && !c.is_ascii_alphanumeric() && c != '-';
    let mut out = String::new();
    let mut in_run = false;
    for c in text.chars() {
        if unsafe_char(c) {
            if !in_run {
                out.push('-');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// Node's `process.platform` on this machine, which Playwright Test puts in a baseline's name.
fn playwright_platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    }
}

/// `playwright.config.ts`: prettyplay's settings as Playwright's.
fn config_ts(settings: &Settings, executables: &[PathBuf], dir: &Path, has_setup: bool) -> String {
    let browser = &settings.browser;
    let ms = |d: std::time::Duration| d.as_millis();
    let navigation = browser.timeout.max(std::time::Duration::from_secs(30));
    let mut use_ = String::new();
    if let Some(base) = &browser.base_url {
        let _ = writeln!(use_, "    baseURL: {},", js(base));
    }
    let _ = writeln!(use_, "    headless: {},", browser.headless);
    let _ = writeln!(use_, "    actionTimeout: {},", ms(browser.timeout));
    let _ = writeln!(use_, "    navigationTimeout: {},", ms(navigation));
    match &browser.screen {
        Screen::Default => {}
        Screen::Size { width, height } => {
            let _ = writeln!(
                use_,
                "    viewport: {{ width: {width}, height: {height} }},"
            );
        }
        Screen::Fullscreen => {
            let _ = writeln!(use_, "    viewport: null,");
        }
        Screen::Device(name) => {
            let _ = writeln!(use_, "    ...devices[{}],", js(name));
        }
    }
    let projects: Vec<(BrowserName, String)> = browser
        .browsers
        .iter()
        .zip(executables)
        .enumerate()
        .map(|(index, (&name, exe))| {
            let launch = launch_ts(&browser.for_project(index), exe, ms(browser.slow_mo));
            (name, launch)
        })
        .collect();
    if let [(_, launch)] = projects.as_slice() {
        use_.push_str(launch);
    }
    let env_file = relative(dir, &settings.project_root.join(".env"));
    let mut config = format!(
        "{HEADER} from {}.\n\
         // `npx playwright test` here runs the exported scenarios with their cached code, in the\n\
         // browser prettyplay launches, and passes and fails as `prettyplay replay --strict` does.\n\
         import {{ defineConfig, devices }} from '@playwright/test';\n\
         import * as path from 'path';\n\n\
         // prettyplay reads .env beside prettyplay.toml; the environment wins, as in prettyplay.\n\
         try {{\n  process.loadEnvFile(path.resolve(__dirname, {}));\n}} catch {{\n  // No .env.\n}}\n\n\
         export default defineConfig({{\n  testDir: '.',\n  timeout: {},\n  expect: {{ timeout: {} }},\n  \
         retries: {},\n",
        settings
            .config_file
            .as_ref()
            .map_or("the defaults".to_owned(), |p| {
                crate::visible::visible(&p.display().to_string()).into_owned()
            }),
        js(&env_file),
        ms(settings.run.test_timeout),
        ms(browser.timeout),
        settings.run.retries,
    );
    if let Some(workers) = settings.run.workers {
        let _ = writeln!(config, "  workers: {workers},");
    }
    // As `replay --strict`, a run of the export never writes a baseline: a missing one (another
    // platform's name, say) fails instead of passing against a picture nobody checked.
    let _ = writeln!(config, "  updateSnapshots: 'none',");
    let _ = writeln!(config, "  reporter: [['list']],");
    let _ = write!(config, "  use: {{\n{use_}  }},\n");
    if !settings.web_servers.is_empty() {
        let _ = writeln!(config, "  webServer: [");
        for server in &settings.web_servers {
            let env: Vec<String> = server
                .env
                .iter()
                .map(|(k, v)| format!("{}: {}", js(k), js(v)))
                .collect();
            let _ = writeln!(
                config,
                "    {{ command: {}, url: {}, timeout: {}, reuseExistingServer: {}, cwd: {}, env: {{ {} }} }},",
                js(&server.command),
                js(&server.url),
                ms(server.timeout),
                server.reuse_existing,
                js(&server.cwd.display().to_string()),
                env.join(", ")
            );
        }
        let _ = writeln!(config, "  ],");
    }
    match projects.as_slice() {
        [_] if has_setup => {
            // prettyplay runs the tests that save a state first; Playwright's setup project
            // does.
            let _ = writeln!(
                config,
                "  projects: [\n    {{ name: 'setup', testMatch: /\\.setup\\.ts$/ }},\n    \
                 {{ name: '{}', testMatch: /\\.spec\\.ts$/, dependencies: ['setup'] }},\n  ],",
                projects[0].0.as_str()
            );
        }
        [_] => {
            let _ = writeln!(config, "  testMatch: /\\.spec\\.ts$/,");
        }
        projects => {
            // One project per browser, as prettyplay's browser projects; each browser runs its
            // own setup tests first.
            let _ = writeln!(config, "  projects: [");
            for (name, launch) in projects {
                let name = name.as_str();
                let dependencies = if has_setup {
                    let _ = writeln!(
                        config,
                        "    {{ name: 'setup-{name}', testMatch: /\\.setup\\.ts$/, use: {{\n{launch}    }} }},"
                    );
                    format!(", dependencies: ['setup-{name}']")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    config,
                    "    {{ name: '{name}', testMatch: /\\.spec\\.ts$/{dependencies}, use: {{\n{launch}    }} }},"
                );
            }
            let _ = writeln!(config, "  ],");
        }
    }
    config.push_str("});\n");
    config
}

/// The `use` lines that launch the browser of `browser` at `exe` as prettyplay does:
/// Chromium with prettyplay's flags, or a stock Firefox over WebDriver BiDi (`moz-firefox`).
fn launch_ts(browser: &BrowserSettings, exe: &Path, slow_mo: u128) -> String {
    let exe = js(&exe.display().to_string());
    match browser.name {
        BrowserName::Firefox => format!(
            "    browserName: 'firefox',\n    channel: {},\n    launchOptions: {{\n      \
             executablePath: {exe},\n      slowMo: {slow_mo},\n    }},\n",
            js(FIREFOX_CHANNEL)
        ),
        _ => {
            let args: Vec<String> = chromium_launch_args(browser)
                .iter()
                .map(|a| js(a))
                .collect();
            format!(
                "    launchOptions: {{\n      executablePath: {exe},\n      args: [{}],\n      \
                 slowMo: {slow_mo},\n    }},\n",
                args.join(", ")
            )
        }
    }
}

/// `to` relative to `from` (both absolute), `/`-separated, or `to` itself when they share no
/// root.
fn relative(from: &Path, to: &Path) -> String {
    let from: Vec<_> = from.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return to.display().to_string();
    }
    let mut parts: Vec<String> = vec!["..".to_owned(); from.len() - common];
    parts.extend(
        to_parts[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Writes `text` to `path`, replacing a file only if the export wrote it.
fn write_ours(path: &Path, text: &str) -> Result<(), ExportError> {
    let error = |source| ExportError::Write {
        path: path.to_owned(),
        source,
    };
    match fs::read_to_string(path) {
        Ok(existing) if !is_ours(&existing) => {
            return Err(ExportError::NotOurs {
                path: path.to_owned(),
            });
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(error(e)),
    }
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(error)?;
    }
    fs::write(path, text).map_err(error)
}

/// Whether a file's text is one the export wrote (its header, or package.json's note).
fn is_ours(text: &str) -> bool {
    text.starts_with(HEADER) || text.contains("Written by `prettyplay export --playwright`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_paths_keep_a_feature_apart_from_steps() {
        assert_eq!(spec_base("scenarios/todo.steps"), "scenarios/todo");
        assert_eq!(
            spec_base("scenarios/todo.feature"),
            "scenarios/todo.feature"
        );
        assert_eq!(spec_base("/abs/x.steps"), "external/abs/x");
    }

    #[test]
    fn relative_paths_climb_to_the_project() {
        assert_eq!(
            relative(Path::new("/p/out/pw"), Path::new("/p/.env")),
            "../../.env"
        );
        assert_eq!(relative(Path::new("/p"), Path::new("/p/.env")), ".env");
    }

    #[test]
    fn baselines_are_copied_under_the_names_playwright_test_looks_for() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().join("cache"));
        let baselines = Baselines::of(&cache, "scenarios/look.steps");
        fs::create_dir_all(baselines.dir()).unwrap();
        for name in [
            "the-look-2-chromium.png",
            "the-look-2-heading-firefox.png",
            "_-1-chromium.png",
            "notes.txt",
        ] {
            fs::write(baselines.dir().join(name), "png").unwrap();
        }
        let spec = "scenarios/look.spec.ts";
        let platform = playwright_platform();
        let names = |browsers: &[BrowserName], named: bool| -> Vec<String> {
            baseline_copies(&baselines, spec, browsers, named)
                .unwrap()
                .into_iter()
                .map(|(copy, _)| copy)
                .collect()
        };
        assert_eq!(
            names(&[BrowserName::Chromium], false),
            [
                format!("{spec}-snapshots/--1-{platform}.png"),
                format!("{spec}-snapshots/the-look-2-{platform}.png"),
            ]
        );
        assert_eq!(
            names(&[BrowserName::Chromium, BrowserName::Firefox], true),
            [
                format!("{spec}-snapshots/--1-chromium-{platform}.png"),
                format!("{spec}-snapshots/the-look-2-chromium-{platform}.png"),
                format!("{spec}-snapshots/the-look-2-heading-firefox-{platform}.png"),
            ]
        );
        let missing = Baselines::of(&cache, "scenarios/none.steps");
        assert!(
            baseline_copies(&missing, spec, &[BrowserName::Chromium], false)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn a_file_the_export_did_not_write_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("playwright.config.ts");
        fs::write(&path, "// mine\n").unwrap();
        assert!(matches!(
            write_ours(&path, "x"),
            Err(ExportError::NotOurs { .. })
        ));
        assert_eq!(fs::read_to_string(&path).unwrap(), "// mine\n");
        fs::write(&path, format!("{HEADER} from x\n")).unwrap();
        write_ours(&path, "new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    }
}
