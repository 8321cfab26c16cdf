//! `[web_server]`: the servers of the app under test that a run starts before its first test and
//! stops after its last, as Playwright Test's `webServer` does.
//!
//! Main types: [`WebServerSettings`] (one server, resolved), [`RawWebServers`] (the file's
//! `[web_server]` table or `[[web_server]]` array, as written), [`FileWebServer`] (one checked
//! entry of the file) and [`WebServerLayer`] (what the environment says of every server:
//! [`ENV_VARS`]). Stacked and finished by `settings.rs`; documented in `docs/configuration.md`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use toml::Spanned;

use super::ConfigError;
use super::defaults;
use super::file_context::FileContext;
use super::section_layer::section_layer;
use super::value_forms::{
    BOOL_FORMS, EnvSetter, POSITIVE_SECONDS_FORM, parse_bool, parse_seconds, positive_seconds,
};
use crate::paths::normalize;

/// One web server of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebServerSettings {
    /// Run with `sh -c`, in a process group of its own.
    pub command: String,
    /// Polled with HTTP GET until it answers 2xx, 3xx or 400-403: then the server is ready.
    pub url: String,
    /// How long the server may take to answer `url` (default 60 s).
    pub timeout: Duration,
    /// When `url` already answers before the command is run: use that server and run nothing
    /// (`true`), or fail the run (`false`). Default: `true`, `false` when `CI` is set.
    pub reuse_existing: bool,
    /// Absolute: the command's working directory (default: the project root).
    pub cwd: PathBuf,
    /// Variables added to the environment the command inherits.
    pub env: BTreeMap<String, String>,
}

/// One `[web_server]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawWebServer {
    command: Spanned<String>,
    url: Spanned<String>,
    timeout: Option<Spanned<f64>>,
    reuse_existing: Option<bool>,
    cwd: Option<PathBuf>,
    env: Option<BTreeMap<String, String>>,
}

/// `[web_server]` (one server) or `[[web_server]]` (several), as written.
#[derive(Debug, Default)]
pub(super) struct RawWebServers(Vec<RawWebServer>);

impl<'de> Deserialize<'de> for RawWebServers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OneOrMany;

        impl<'de> Visitor<'de> for OneOrMany {
            type Value = RawWebServers;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a [web_server] table or [[web_server]] tables")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let one = RawWebServer::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RawWebServers(vec![one]))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut servers = Vec::new();
                while let Some(server) = seq.next_element()? {
                    servers.push(server);
                }
                Ok(RawWebServers(servers))
            }
        }

        deserializer.deserialize_any(OneOrMany)
    }
}

/// One server of the settings file, checked; what the file leaves unset stays `None`.
#[derive(Debug)]
pub(super) struct FileWebServer {
    command: String,
    url: String,
    timeout: Option<Duration>,
    reuse_existing: Option<bool>,
    cwd: PathBuf,
    env: BTreeMap<String, String>,
}

impl FileWebServer {
    /// Every server of the file, checked; relative paths are relative to `root`.
    pub(super) fn from_file(
        raw: RawWebServers,
        root: &Path,
        file: &FileContext<'_>,
    ) -> Result<Vec<FileWebServer>, ConfigError> {
        raw.0
            .into_iter()
            .map(|raw| {
                let command = raw.command.get_ref().trim();
                if command.is_empty() {
                    return Err(file.error(
                        Some(raw.command.span()),
                        "`web_server.command` must not be empty".to_owned(),
                        Some("e.g. `command = \"npm run start\"`".to_owned()),
                    ));
                }
                if !is_http_url(raw.url.get_ref()) {
                    return Err(file.error(
                        Some(raw.url.span()),
                        format!(
                            "`web_server.url` must be an http:// or https:// URL, got {:?}",
                            raw.url.get_ref()
                        ),
                        Some("e.g. `url = \"http://127.0.0.1:3000\"`".to_owned()),
                    ));
                }
                Ok(FileWebServer {
                    command: command.to_owned(),
                    url: raw.url.into_inner(),
                    timeout: file.checked(
                        "web_server.timeout",
                        POSITIVE_SECONDS_FORM,
                        raw.timeout,
                        positive_seconds,
                    )?,
                    reuse_existing: raw.reuse_existing,
                    cwd: normalize(&root.join(raw.cwd.unwrap_or_default())),
                    env: raw.env.unwrap_or_default(),
                })
            })
            .collect()
    }

    /// The gaps filled from `env` (which wins) and the defaults.
    pub(super) fn finish(self, env: &WebServerLayer) -> WebServerSettings {
        let in_ci = env.in_ci.unwrap_or(false);
        WebServerSettings {
            command: self.command,
            url: self.url,
            timeout: env
                .timeout
                .or(self.timeout)
                .unwrap_or(defaults::WEB_SERVER_TIMEOUT),
            reuse_existing: env.reuse_existing.or(self.reuse_existing).unwrap_or(!in_ci),
            cwd: self.cwd,
            env: self.env,
        }
    }
}

/// An absolute http(s) URL with a host.
fn is_http_url(text: &str) -> bool {
    url::Url::parse(text)
        .is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some())
}

section_layer! {
    /// What the environment says of every `[web_server]`: `PRETTYPLAY_WEB_SERVER_TIMEOUT` and
    /// `PRETTYPLAY_WEB_SERVER_REUSE_EXISTING` apply to each server; `in_ci` is whether `CI` is
    /// set, which turns `reuse_existing`'s default off.
    WebServerLayer {
        timeout: Duration,
        reuse_existing: bool,
        in_ci: bool,
    }
}

/// The environment variables of `[web_server]`. A server itself (its command and URL) is only
/// ever defined in the file; these apply to every server of it.
pub(super) const ENV_VARS: &[(&str, EnvSetter<WebServerLayer>)] = &[
    ("PRETTYPLAY_WEB_SERVER_TIMEOUT", |layer, _, value| {
        let timeout = parse_seconds(value).filter(|t| !t.is_zero());
        layer.timeout = Some(timeout.ok_or(POSITIVE_SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_WEB_SERVER_REUSE_EXISTING", |layer, _, value| {
        layer.reuse_existing = Some(parse_bool(value).ok_or(BOOL_FORMS)?);
        Ok(())
    }),
];

/// `CI`, read like a `[web_server]` variable: any non-empty value turns `reuse_existing`'s
/// default off, as Playwright's `reuseExistingServer: !process.env.CI` reads it.
pub(super) const CI_ENV_VARS: &[(&str, EnvSetter<WebServerLayer>)] = &[("CI", |layer, _, _| {
    layer.in_ci = Some(true);
    Ok(())
})];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{
        CONFIG_FILE, assert_env_refused, env_of, no_env, project, resolve, resolve_err,
    };

    const ONE: &str = "[web_server]\ncommand = \"npm start\"\nurl = \"http://127.0.0.1:3000\"\n";

    #[test]
    fn one_table_is_one_server_with_the_defaults() {
        let dir = project(ONE);
        let settings = resolve(dir.path(), &no_env);
        assert_eq!(
            settings.web_servers,
            vec![WebServerSettings {
                command: "npm start".into(),
                url: "http://127.0.0.1:3000".into(),
                timeout: Duration::from_secs(60),
                reuse_existing: true,
                cwd: dir.path().to_path_buf(),
                env: BTreeMap::new(),
            }]
        );
        // The first server's URL is the base URL when none is set.
        assert_eq!(
            settings.browser.base_url.as_deref(),
            Some("http://127.0.0.1:3000")
        );
        let dir = project(&format!("{ONE}[browser]\nbase_url = \"http://other\"\n"));
        let settings = resolve(dir.path(), &no_env);
        assert_eq!(settings.browser.base_url.as_deref(), Some("http://other"));
        // No server: none is started and no base URL is made up.
        let dir = project("");
        let settings = resolve(dir.path(), &no_env);
        assert!(settings.web_servers.is_empty());
        assert_eq!(settings.browser.base_url, None);
    }

    #[test]
    fn an_array_is_several_servers_in_order_with_every_key() {
        let dir = project(
            "[[web_server]]\ncommand = \"api\"\nurl = \"http://127.0.0.1:4000/health\"\n\
             timeout = 2.5\nreuse_existing = false\ncwd = \"backend\"\n\
             env = { PORT = \"4000\", MODE = \"test\" }\n\
             [[web_server]]\ncommand = \"web\"\nurl = \"https://localhost:3000\"\n",
        );
        let settings = resolve(dir.path(), &no_env);
        let servers = &settings.web_servers;
        assert_eq!(servers.len(), 2);
        assert_eq!(servers[0].command, "api");
        assert_eq!(servers[0].timeout, Duration::from_millis(2500));
        assert!(!servers[0].reuse_existing);
        assert_eq!(servers[0].cwd, dir.path().join("backend"));
        assert_eq!(
            servers[0].env,
            BTreeMap::from([
                ("MODE".to_owned(), "test".to_owned()),
                ("PORT".to_owned(), "4000".to_owned())
            ])
        );
        assert_eq!(servers[1].url, "https://localhost:3000");
        assert!(servers[1].reuse_existing);
        assert_eq!(
            settings.browser.base_url.as_deref(),
            Some("http://127.0.0.1:4000/health")
        );
    }

    #[test]
    fn ci_turns_reuse_off_and_the_environment_wins_for_every_server() {
        let dir = project(ONE);
        let ci = env_of(&[("CI", "true")]);
        assert!(!resolve(dir.path(), &ci).web_servers[0].reuse_existing);
        // An empty CI is unset.
        let empty = env_of(&[("CI", "")]);
        assert!(resolve(dir.path(), &empty).web_servers[0].reuse_existing);
        let dir = project(&format!("{ONE}reuse_existing = true\ntimeout = 5\n"));
        assert!(resolve(dir.path(), &ci).web_servers[0].reuse_existing);
        let env = env_of(&[
            ("CI", "1"),
            ("PRETTYPLAY_WEB_SERVER_REUSE_EXISTING", "no"),
            ("PRETTYPLAY_WEB_SERVER_TIMEOUT", "120"),
        ]);
        let server = &resolve(dir.path(), &env).web_servers[0];
        assert!(!server.reuse_existing);
        assert_eq!(server.timeout, Duration::from_secs(120));
    }

    #[test]
    fn bad_web_server_values_point_at_the_value() {
        let file_of = |dir: &tempfile::TempDir| dir.path().join(CONFIG_FILE).display().to_string();
        for (toml, message) in [
            (
                "[web_server]\ncommand = \" \"\nurl = \"http://x\"\n",
                "2:11: `web_server.command` must not be empty",
            ),
            (
                "[web_server]\ncommand = \"x\"\nurl = \"127.0.0.1:3000\"\n",
                "3:7: `web_server.url` must be an http:// or https:// URL, got \"127.0.0.1:3000\"",
            ),
            (
                "[web_server]\ncommand = \"x\"\nurl = \"http://x\"\ntimeout = 0\n",
                "4:11: `web_server.timeout` must be a number of seconds > 0",
            ),
        ] {
            let dir = project(toml);
            let shown = resolve_err(dir.path(), &no_env).to_string();
            assert!(
                shown.starts_with(&format!("{}:{message}", file_of(&dir))),
                "{shown}"
            );
        }
        for (toml, needle) in [
            (
                "[web_server]\nurl = \"http://x\"\n",
                "missing field `command`",
            ),
            (
                "[web_server]\ncommand = \"x\"\nurl = \"http://x\"\nport = 3000\n",
                "unknown key `port`",
            ),
            (
                "web_server = 3\n",
                "a [web_server] table or [[web_server]] tables",
            ),
        ] {
            let dir = project(toml);
            let shown = resolve_err(dir.path(), &no_env).to_string();
            assert!(shown.contains(needle), "{toml}: {shown}");
        }
        assert_env_refused(&[
            (
                "PRETTYPLAY_WEB_SERVER_TIMEOUT",
                "0",
                "a number of seconds > 0, at most 86400 (24 h), e.g. 60",
            ),
            (
                "PRETTYPLAY_WEB_SERVER_REUSE_EXISTING",
                "maybe",
                "one of true, false, 1, 0, yes, no",
            ),
        ]);
    }
}
