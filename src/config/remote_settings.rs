//! `[browser] connect`, `cdp`, `connect_headers`, `connect_timeout` and `name`: a browser that
//! runs elsewhere (a Playwright server, a grid, a Chromium with a DevTools port), and which
//! engine it is.
//!
//! Main types: [`RemoteBrowser`] (where to connect, how, with which headers) and
//! [`BrowserName`], finished from [`RemoteLayer`], what one source says of these keys (read
//! from `[browser]` of the file, [`RawRemote`], or the environment, [`ENV_VARS`]); [`check`]
//! refuses what no source alone can see wrong (`name = "firefox"` without `connect`).

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use toml::Spanned;

use super::defaults;
use super::file_context::FileContext;
use super::section_layer::section_layer;
use super::value_forms::{EnvSetter, POSITIVE_SECONDS_FORM, parse_seconds, positive_seconds};
use super::{BrowserSettings, ConfigError};
use crate::secrets::MIN_SECRET_CHARS;

/// Accepted forms of `browser.connect`.
const CONNECT_FORM: &str = "a Playwright server's WebSocket URL such as ws://127.0.0.1:3000/ \
                            (ws://, a host, an optional port and path; no credentials)";
/// Accepted forms of `browser.cdp`.
const CDP_FORM: &str = "a Chrome DevTools endpoint such as http://127.0.0.1:9222 (http://, \
                        https://, ws:// or wss://; no credentials)";
/// `PRETTYPLAY_BROWSER_CDP` when `PRETTYPLAY_BROWSER_CONNECT` is set too.
const CDP_AND_CONNECT_FORM: &str =
    "nothing while PRETTYPLAY_BROWSER_CONNECT is set: a browser is reached one way, connect or cdp";
/// Accepted forms of `browser.name`.
const NAME_FORMS: &str = "one of chromium, firefox, webkit, or several separated by commas \
                          (chromium,firefox) to run every test in each";
/// Accepted form of `PRETTYPLAY_BROWSER_CONNECT_HEADERS`.
const HEADERS_FORM: &str = "a JSON object of header names and string values, such as \
                            {\"Authorization\": \"Bearer ...\"}";

/// How prettyplay reaches a browser that runs elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoteProtocol {
    /// A Playwright server (`launchServer`, `playwright run-server`, a grid): Playwright's
    /// `browserType.connect`.
    Connect,
    /// A Chromium's DevTools endpoint: Playwright's `connectOverCDP`, through the local driver.
    Cdp,
}

/// `[browser] connect` or `cdp`: a browser prettyplay connects to instead of launching one.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteBrowser {
    pub protocol: RemoteProtocol,
    /// The URL as configured. It may hold a token (a path, a query): show [`Self::shown`].
    pub endpoint: String,
    /// Sent with the connection request; secrets (never shown).
    pub headers: ConnectHeaders,
    /// How long one connection may take to be established.
    pub timeout: Duration,
}

impl RemoteBrowser {
    /// The endpoint as it may be shown: scheme, host and port, the path and query elided
    /// (they may hold a token: a `launchServer` path is one), and how it is reached, such as
    /// `ws://127.0.0.1:3000/… (connect)`.
    pub fn shown(&self) -> String {
        let how = match self.protocol {
            RemoteProtocol::Connect => "connect",
            RemoteProtocol::Cdp => "cdp",
        };
        format!("{} ({how})", shown_endpoint(&self.endpoint))
    }

    /// The values that must never be shown, as `(name, value)` secrets: the header values and
    /// the endpoint's path and query, of at least [`MIN_SECRET_CHARS`] characters.
    pub fn secrets(&self) -> Vec<(String, String)> {
        let mut secrets: Vec<(String, String)> = self
            .headers
            .0
            .iter()
            .map(|(name, value)| (format!("connect_headers.{name}"), value.clone()))
            .collect();
        if let Ok(url) = url::Url::parse(&self.endpoint) {
            let mut rest = url.path().trim_start_matches('/').to_owned();
            if let Some(query) = url.query() {
                secrets.push(("connect query".to_owned(), query.to_owned()));
            }
            if rest.ends_with('/') {
                rest.pop();
            }
            secrets.push(("connect path".to_owned(), rest));
        }
        secrets.retain(|(_, value)| value.chars().count() >= MIN_SECRET_CHARS);
        secrets
    }
}

/// Scheme, host and port of a URL, then `/…` when it has more (a path, a query).
fn shown_endpoint(endpoint: &str) -> String {
    let Ok(url) = url::Url::parse(endpoint) else {
        return "(an invalid URL)".to_owned();
    };
    let mut shown = format!("{}://{}", url.scheme(), url.host_str().unwrap_or_default());
    if let Some(port) = url.port() {
        shown.push_str(&format!(":{port}"));
    }
    if url.path() != "/" || url.query().is_some() {
        shown.push_str("/…");
    }
    shown
}

/// `[browser] connect_headers`: header names and values sent with the connection request.
/// Values are secrets: `Debug` shows the names only.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ConnectHeaders(Vec<(String, String)>);

impl ConnectHeaders {
    /// The headers, as playwright-rs takes them.
    pub fn to_map(&self) -> std::collections::HashMap<String, String> {
        self.0.iter().cloned().collect()
    }

    /// Whether a header of this name (in any case) is set.
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// Checked headers: names are HTTP tokens, values visible ASCII, spaces and tabs. `Err`
    /// says what is wrong without quoting a value.
    fn checked(headers: BTreeMap<String, String>) -> Result<ConnectHeaders, BadHeader> {
        for (name, value) in &headers {
            let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
            if name.is_empty() || !name.chars().all(token) {
                return Err(BadHeader::Name { name: name.clone() });
            }
            if !value.chars().all(|c| c == '\t' || (' '..='~').contains(&c)) {
                return Err(BadHeader::Value { name: name.clone() });
            }
        }
        Ok(ConnectHeaders(headers.into_iter().collect()))
    }
}

/// What is wrong with a `[browser] connect_headers` entry. The message never quotes a value,
/// which may be a token; it follows `` `browser.connect_headers` ``.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum BadHeader {
    #[error("has {name:?}, which is not a header name")]
    Name { name: String },
    #[error("header `{name}` has a value with a control or non-ASCII character")]
    Value { name: String },
}

/// Names only: a header's value may be a token.
impl fmt::Debug for ConnectHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|(name, _)| format!("{name}: ***")))
            .finish()
    }
}

/// `[browser] name`: the engine. Launched locally, Chromium or Firefox (a stock Firefox over
/// WebDriver BiDi); a Playwright server launches what it is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BrowserName {
    #[default]
    Chromium,
    Firefox,
    Webkit,
}

impl BrowserName {
    /// Playwright's name of the engine.
    pub fn as_str(self) -> &'static str {
        match self {
            BrowserName::Chromium => "chromium",
            BrowserName::Firefox => "firefox",
            BrowserName::Webkit => "webkit",
        }
    }

    /// `chromium`, `firefox` or `webkit`, in any case.
    fn parse(value: &str) -> Option<BrowserName> {
        match value.trim().to_ascii_lowercase().as_str() {
            "chromium" => Some(BrowserName::Chromium),
            "firefox" => Some(BrowserName::Firefox),
            "webkit" => Some(BrowserName::Webkit),
            _ => None,
        }
    }
}

/// A URL of one of `schemes`, with a host and no credentials.
fn parse_endpoint(value: &str, schemes: &[&str]) -> Option<String> {
    let value = value.trim();
    let url = url::Url::parse(value).ok()?;
    let fine = schemes.contains(&url.scheme())
        && url.host_str().is_some_and(|h| !h.is_empty())
        && url.username().is_empty()
        && url.password().is_none()
        && url.fragment().is_none();
    fine.then(|| value.to_owned())
}

fn parse_connect(value: &str) -> Option<String> {
    parse_endpoint(value, &["ws"])
}

fn parse_cdp(value: &str) -> Option<String> {
    parse_endpoint(value, &["http", "https", "ws", "wss"])
}

section_layer! {
    /// What one source says of the remote keys of `[browser]`; `None` leaves the decision to
    /// lower sources.
    RemoteLayer {
        /// `connect` or `cdp`, whichever the source says (a higher source's replaces the other).
        endpoint: (RemoteProtocol, String),
        connect_headers: ConnectHeaders,
        connect_timeout: Duration,
        /// `name`, or `browsers`: the engines every test runs in, in order, without repeats.
        names: Vec<BrowserName>,
    }
}

/// The remote keys of `[browser]` as written (read with the rest of `[browser]`).
pub(super) struct RawRemote {
    pub(super) connect: Option<Spanned<String>>,
    pub(super) cdp: Option<Spanned<String>>,
    pub(super) connect_headers: Option<Spanned<BTreeMap<String, String>>>,
    pub(super) connect_timeout: Option<Spanned<f64>>,
    pub(super) name: Option<Spanned<String>>,
    pub(super) browsers: Option<Spanned<Vec<Spanned<String>>>>,
}

impl RemoteLayer {
    /// The remote keys of `[browser]` in the file, checked.
    pub(super) fn from_file(
        raw: RawRemote,
        file: &FileContext<'_>,
    ) -> Result<RemoteLayer, ConfigError> {
        read_file(raw, file)
    }

    /// `--browser`, given once per engine.
    pub(super) fn from_overrides(browsers: &[String]) -> Result<RemoteLayer, ConfigError> {
        let mut names = Vec::new();
        for value in browsers {
            for name in parse_names(value).ok_or_else(|| ConfigError::Flag {
                flag: "browser",
                value: value.clone(),
                expected: NAME_FORMS,
            })? {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        Ok(RemoteLayer {
            names: (!names.is_empty()).then_some(names),
            ..RemoteLayer::default()
        })
    }

    /// The remote browser the stacked layers say, if any, and the engines (Chromium alone by
    /// default).
    pub(super) fn finish(self) -> (Option<RemoteBrowser>, Vec<BrowserName>) {
        let remote = self.endpoint.map(|(protocol, endpoint)| RemoteBrowser {
            protocol,
            endpoint,
            headers: self.connect_headers.unwrap_or_default(),
            timeout: self.connect_timeout.unwrap_or(defaults::CONNECT_TIMEOUT),
        });
        let names = self
            .names
            .filter(|names| !names.is_empty())
            .unwrap_or_else(|| vec![BrowserName::default()]);
        (remote, names)
    }
}

fn read_file(mut raw: RawRemote, file: &FileContext<'_>) -> Result<RemoteLayer, ConfigError> {
    let mut layer = RemoteLayer::default();
    if let (Some(_), Some(cdp)) = (&raw.connect, &raw.cdp) {
        return Err(file.error(
            Some(cdp.span()),
            "`browser.cdp` and `browser.connect` are both set".to_owned(),
            Some("a browser is reached one way: keep `connect` for a Playwright server, `cdp` for a Chromium's DevTools endpoint".to_owned()),
        ));
    }
    if let Some(connect) = raw.connect.take() {
        if connect.get_ref().trim().starts_with("wss:") {
            return Err(file.error(
                Some(connect.span()),
                "`browser.connect` is a wss:// URL, which prettyplay cannot open yet".to_owned(),
                Some("use ws:// (a TLS tunnel to the server, for instance), or `cdp` for a Chromium endpoint".to_owned()),
            ));
        }
        let url = file.parsed(
            "browser.connect",
            CONNECT_FORM,
            Some(connect),
            parse_connect,
        )?;
        layer.endpoint = url.map(|url| (RemoteProtocol::Connect, url));
    }
    if let Some(cdp) = raw.cdp.take() {
        let url = file.parsed("browser.cdp", CDP_FORM, Some(cdp), parse_cdp)?;
        layer.endpoint = url.map(|url| (RemoteProtocol::Cdp, url));
    }
    if let Some(headers) = raw.connect_headers.take() {
        let span = headers.span();
        layer.connect_headers = Some(ConnectHeaders::checked(headers.into_inner()).map_err(
            |problem| {
                file.error(
                    Some(span),
                    format!("`browser.connect_headers` {problem}"),
                    None,
                )
            },
        )?);
    }
    layer.connect_timeout = file.checked(
        "browser.connect_timeout",
        POSITIVE_SECONDS_FORM,
        raw.connect_timeout.take(),
        positive_seconds,
    )?;
    if let (Some(_), Some(browsers)) = (&raw.name, &raw.browsers) {
        return Err(file.error(
            Some(browsers.span()),
            "`browser.name` and `browser.browsers` are both set".to_owned(),
            Some(
                "keep `name` for one browser, or `browsers = [\"chromium\", \"firefox\"]` to \
                 run every test in each"
                    .to_owned(),
            ),
        ));
    }
    layer.names = file
        .parsed(
            "browser.name",
            "one of chromium, firefox, webkit",
            raw.name.take(),
            BrowserName::parse,
        )?
        .map(|name| vec![name]);
    if let Some(list) = raw.browsers.take() {
        layer.names = Some(browser_list(list, file)?);
    }
    Ok(layer)
}

/// The environment variables of the remote keys of `[browser]`.
pub(super) const ENV_VARS: &[(&str, EnvSetter<RemoteLayer>)] = &[
    ("PRETTYPLAY_BROWSER_CONNECT", |layer, _, value| {
        let url = parse_connect(value).ok_or(CONNECT_FORM)?;
        layer.endpoint = Some((RemoteProtocol::Connect, url));
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_CDP", |layer, _, value| {
        if layer.endpoint.is_some() {
            return Err(CDP_AND_CONNECT_FORM);
        }
        let url = parse_cdp(value).ok_or(CDP_FORM)?;
        layer.endpoint = Some((RemoteProtocol::Cdp, url));
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_CONNECT_HEADERS", |layer, _, value| {
        let headers: BTreeMap<String, String> =
            serde_json::from_str(value).map_err(|_| HEADERS_FORM)?;
        layer.connect_headers = Some(ConnectHeaders::checked(headers).map_err(|_| HEADERS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_CONNECT_TIMEOUT", |layer, _, value| {
        let timeout = parse_seconds(value).filter(|t| !t.is_zero());
        layer.connect_timeout = Some(timeout.ok_or(POSITIVE_SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_NAME", |layer, _, value| {
        layer.names = Some(parse_names(value).ok_or(NAME_FORMS)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_BROWSERS", |layer, _, value| {
        layer.names = Some(parse_names(value).ok_or(NAME_FORMS)?);
        Ok(())
    }),
];

/// Engines separated by commas (`chromium,firefox`), without repeats; `None` when one is not
/// an engine or there is none.
fn parse_names(value: &str) -> Option<Vec<BrowserName>> {
    let mut names = Vec::new();
    for part in value.split(',') {
        let name = BrowserName::parse(part)?;
        if !names.contains(&name) {
            names.push(name);
        }
    }
    (!names.is_empty()).then_some(names)
}

/// `browser.browsers` of the file: engines, each once, at least one.
fn browser_list(
    list: Spanned<Vec<Spanned<String>>>,
    file: &FileContext<'_>,
) -> Result<Vec<BrowserName>, ConfigError> {
    let span = list.span();
    let mut names = Vec::new();
    for entry in list.into_inner() {
        let name = BrowserName::parse(entry.get_ref()).ok_or_else(|| {
            file.error(
                Some(entry.span()),
                format!(
                    "`browser.browsers` entry {:?} is not a browser",
                    entry.get_ref()
                ),
                Some("each entry is one of \"chromium\", \"firefox\", \"webkit\"".to_owned()),
            )
        })?;
        if names.contains(&name) {
            return Err(file.error(
                Some(entry.span()),
                format!("`browser.browsers` lists {:?} twice", name.as_str()),
                Some("list each browser once".to_owned()),
            ));
        }
        names.push(name);
    }
    if names.is_empty() {
        return Err(file.error(
            Some(span),
            "`browser.browsers` is empty".to_owned(),
            Some("list at least one browser, such as [\"chromium\", \"firefox\"]".to_owned()),
        ));
    }
    Ok(names)
}

/// Environment variables whose invalid value is not echoed in errors.
pub(super) const SECRET_SHAPED_VARS: &[&str] = &[
    "PRETTYPLAY_BROWSER_CONNECT",
    "PRETTYPLAY_BROWSER_CDP",
    "PRETTYPLAY_BROWSER_CONNECT_HEADERS",
];

/// What no source alone can see wrong: an engine prettyplay cannot launch, or reach over CDP,
/// and several engines where one browser is configured (a remote browser, an executable).
pub(super) fn check(browser: &BrowserSettings) -> Result<(), ConfigError> {
    let protocol = browser.remote.as_ref().map(|r| r.protocol);
    if browser.browsers.len() > 1 {
        let one = if protocol.is_some() {
            Some("`browser.connect` or `cdp` reaches one browser")
        } else if browser.executable.is_some() {
            Some("`browser.executable` is the executable of one browser")
        } else {
            None
        };
        if let Some(one) = one {
            return Err(ConfigError::Browser {
                message: format!(
                    "{one}, but the run asks for several ({})",
                    names_of(&browser.browsers)
                ),
                hint: "run one browser (`--browser NAME` or `[browser] name`), or leave the \
                       executables to PATH (chromium, firefox-esr) and run them locally"
                    .to_owned(),
            });
        }
    }
    for &name in &browser.browsers {
        if name == BrowserName::Chromium
            || protocol == Some(RemoteProtocol::Connect)
            || (name == BrowserName::Firefox && protocol.is_none())
        {
            continue;
        }
        let message = match protocol {
            Some(RemoteProtocol::Cdp) => format!(
                "`browser.name` is {:?}, but `browser.cdp` reaches only Chromium",
                name.as_str()
            ),
            _ => format!(
                "`browser.name` is {:?}, but prettyplay launches only Chromium and Firefox itself",
                name.as_str()
            ),
        };
        return Err(ConfigError::Browser {
            message,
            hint: format!(
                "set `connect = \"ws://HOST:PORT/PATH\"` under [browser] to a Playwright server \
                 that runs {}, or set `name` to \"chromium\" or \"firefox\"",
                name.as_str()
            ),
        });
    }
    Ok(())
}

/// `chromium, firefox`.
fn names_of(names: &[BrowserName]) -> String {
    names
        .iter()
        .map(|n| n.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{CONFIG_FILE, env_of, no_env, project, resolve, resolve_err};

    #[test]
    fn connect_and_its_options_are_read_from_the_file() {
        let dir = project(
            "[browser]\nconnect = \"ws://127.0.0.1:3000/abcdef\"\nconnect_timeout = 2.5\n\
             name = \"Firefox\"\n[browser.connect_headers]\nAuthorization = \"Bearer sesame\"\n",
        );
        let browser = resolve(dir.path(), &no_env).browser;
        let remote = browser.remote.expect("a remote browser");
        assert_eq!(remote.protocol, RemoteProtocol::Connect);
        assert_eq!(remote.endpoint, "ws://127.0.0.1:3000/abcdef");
        assert_eq!(remote.timeout, Duration::from_millis(2500));
        assert!(remote.headers.has("authorization"));
        assert_eq!(browser.name, BrowserName::Firefox);
        assert_eq!(remote.shown(), "ws://127.0.0.1:3000/… (connect)");
        let shown = format!("{remote:?}");
        assert!(!shown.contains("sesame"), "{shown}");
        let secrets = remote.secrets();
        assert!(secrets.iter().any(|(_, v)| v == "Bearer sesame"));
        assert!(secrets.iter().any(|(_, v)| v == "abcdef"));
    }

    #[test]
    fn defaults_launch_chromium_and_cdp_comes_from_the_environment() {
        let dir = tempfile::tempdir().expect("tempdir");
        let browser = resolve(dir.path(), &no_env).browser;
        assert_eq!(
            (browser.remote, browser.name),
            (None, BrowserName::Chromium)
        );
        let env = env_of(&[
            ("PRETTYPLAY_BROWSER_CDP", "http://127.0.0.1:9222"),
            (
                "PRETTYPLAY_BROWSER_CONNECT_HEADERS",
                "{\"X-Token\": \"abcd1234\"}",
            ),
        ]);
        let remote = resolve(dir.path(), &env).browser.remote.expect("remote");
        assert_eq!(remote.protocol, RemoteProtocol::Cdp);
        assert_eq!(remote.timeout, Duration::from_secs(30));
        assert_eq!(remote.shown(), "http://127.0.0.1:9222 (cdp)");
        assert!(remote.headers.has("x-token"));
        // The variable's cdp wins over the file's connect.
        let dir = project("[browser]\nconnect = \"ws://127.0.0.1:1/\"\n");
        let remote = resolve(dir.path(), &env).browser.remote.expect("remote");
        assert_eq!(remote.protocol, RemoteProtocol::Cdp);
    }

    #[test]
    fn bad_remote_settings_name_the_key_and_never_echo_secrets() {
        let file = |toml: &str| {
            let dir = project(toml);
            let shown = resolve_err(dir.path(), &no_env).to_string();
            (shown, dir.path().join(CONFIG_FILE).display().to_string())
        };
        let (shown, path) = file("[browser]\nconnect = \"http://127.0.0.1:3000/\"\n");
        assert!(
            shown.starts_with(&format!(
                "{path}:2:11: `browser.connect` must be a Playwright"
            )),
            "{shown}"
        );
        let (shown, _) = file("[browser]\nconnect = \"wss://grid.example/\"\n");
        assert!(
            shown.contains("wss:// URL, which prettyplay cannot open yet"),
            "{shown}"
        );
        let (shown, _) =
            file("[browser]\nconnect = \"ws://a:1/\"\ncdp = \"http://127.0.0.1:9222\"\n");
        assert!(
            shown.contains("`browser.cdp` and `browser.connect` are both set"),
            "{shown}"
        );
        let (shown, _) = file("[browser]\ncdp = \"http://user:pw@127.0.0.1:9222\"\n");
        assert!(
            shown.contains("`browser.cdp` must be a Chrome DevTools endpoint"),
            "{shown}"
        );
        let (shown, _) = file("[browser]\nconnect_timeout = 0\n");
        assert!(
            shown.contains("`browser.connect_timeout` must be"),
            "{shown}"
        );
        let (shown, _) = file(
            "[browser]\nconnect = \"ws://a:1/\"\nconnect_headers = { \"X-Key\" = \"a\\nsecretvalue\" }\n",
        );
        assert!(
            shown.contains("header `X-Key` has a value with a control"),
            "{shown}"
        );
        assert!(!shown.contains("secretvalue"), "{shown}");
        let (shown, _) = file("[browser]\nname = \"edge\"\n");
        assert!(shown.contains("`browser.name` must be one of chromium, firefox, webkit"));
        let env = env_of(&[(
            "PRETTYPLAY_BROWSER_CONNECT_HEADERS",
            "Authorization: hunter22",
        )]);
        let dir = tempfile::tempdir().expect("tempdir");
        let shown = resolve_err(dir.path(), &env).to_string();
        assert!(!shown.contains("hunter22"), "{shown}");
        assert!(
            shown.contains("expected a JSON object of header names"),
            "{shown}"
        );
        let env = env_of(&[
            ("PRETTYPLAY_BROWSER_CONNECT", "ws://127.0.0.1:1/"),
            ("PRETTYPLAY_BROWSER_CDP", "http://127.0.0.1:2"),
        ]);
        let shown = resolve_err(dir.path(), &env).to_string();
        assert!(shown.contains("`PRETTYPLAY_BROWSER_CDP`"), "{shown}");
    }

    #[test]
    fn webkit_needs_connect_and_firefox_launches_locally_but_not_over_cdp() {
        let dir = project("[browser]\nname = \"firefox\"\n");
        assert_eq!(
            resolve(dir.path(), &no_env).browser.name,
            BrowserName::Firefox
        );
        let dir = project("[browser]\nname = \"webkit\"\n");
        let e = resolve_err(dir.path(), &no_env);
        assert_eq!(
            e.to_string(),
            "`browser.name` is \"webkit\", but prettyplay launches only Chromium and Firefox \
             itself\n  \
             = hint: set `connect = \"ws://HOST:PORT/PATH\"` under [browser] to a Playwright \
             server that runs webkit, or set `name` to \"chromium\" or \"firefox\""
        );
        let dir = project("[browser]\nname = \"firefox\"\ncdp = \"http://127.0.0.1:9222\"\n");
        assert!(
            resolve_err(dir.path(), &no_env)
                .to_string()
                .contains("but `browser.cdp` reaches only Chromium")
        );
        let env = env_of(&[("PRETTYPLAY_BROWSER_CONNECT", "ws://127.0.0.1:3000/x")]);
        assert_eq!(resolve(dir.path(), &env).browser.name, BrowserName::Firefox);
    }
}
