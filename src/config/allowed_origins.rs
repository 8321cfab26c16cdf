//! `[browser] allowed_origins`: the origins the test's pages may navigate to and load from.
//!
//! Main types: [`AllowedOrigins`], the resolved setting the browser side enforces, and
//! [`OriginEntry`], one entry as a source wrote it, parsed and checked by [`parse_entry`] (the
//! file, with a hint at the entry) and [`parse_env`] (`PRETTYPLAY_BROWSER_ALLOWED_ORIGINS`).
//!
//! The base URL's origin and the schemes in [`defaults::IMPLICIT_SCHEMES`] (`about:`, `data:`,
//! `blob:`) are always allowed; the entries add to them. `file:` is allowed only when listed.
//! `["*"]` allows everything (no guard at all).

use super::defaults;

/// Accepted form of `browser.allowed_origins`, for errors.
pub(super) const ORIGINS_FORM: &str = "a comma-separated list of origins such as \
     http://127.0.0.1:3000 (scheme, host and optional port; no path), about:, data:, blob: or \
     file:, or * alone to allow every origin";

/// The schemes an entry may name alone (`file:`), besides the implicit ones.
const SCHEME_ENTRIES: &[&str] = &["about", "data", "blob", "file"];

/// One entry of `allowed_origins`, as a source wrote it, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum OriginEntry {
    /// `*`: every origin, the guard off.
    Any,
    /// `http://host:port` or `https://host:port`, serialized as browsers do (lowercase, the
    /// default port left out).
    Origin(String),
    /// `about:`, `data:`, `blob:` or `file:` (without the colon).
    Scheme(String),
}

/// `[browser] allowed_origins`, resolved: what the test's pages may reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AllowedOrigins {
    /// `["*"]`: every URL, `file:` included; nothing is checked.
    Any,
    /// These origins and schemes only.
    Only {
        /// Serialized `http(s)://host[:port]` origins, the base URL's first.
        origins: Vec<String>,
        /// Schemes allowed whole (`about`, `data`, `blob`, and `file` when listed).
        schemes: Vec<String>,
    },
}

impl AllowedOrigins {
    /// The setting of `entries` (none: the default) with the base URL's origin and the implicit
    /// schemes added. A `*` entry (which [`check_entries`] allows only alone) is [`Self::Any`].
    pub(super) fn resolve(base_url: Option<&str>, entries: &[OriginEntry]) -> AllowedOrigins {
        if entries.contains(&OriginEntry::Any) {
            return AllowedOrigins::Any;
        }
        let mut origins: Vec<String> = base_url.and_then(origin_of).into_iter().collect();
        let mut schemes: Vec<String> = defaults::IMPLICIT_SCHEMES
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        for entry in entries {
            let (list, value) = match entry {
                OriginEntry::Origin(origin) => (&mut origins, origin),
                OriginEntry::Scheme(scheme) => (&mut schemes, scheme),
                OriginEntry::Any => continue,
            };
            if !list.contains(value) {
                list.push(value.clone());
            }
        }
        AllowedOrigins::Only { origins, schemes }
    }

    /// Also allows `url`'s origin (a `[web_server]`'s: the app's own).
    pub(super) fn allow_origin_of(&mut self, url: &str) {
        if let (AllowedOrigins::Only { origins, .. }, Some(origin)) = (self, origin_of(url))
            && !origins.contains(&origin)
        {
            origins.push(origin);
        }
    }

    /// Whether every URL is allowed (`["*"]`).
    pub fn is_any(&self) -> bool {
        matches!(self, AllowedOrigins::Any)
    }

    /// Whether the pages may navigate to or load `url`. A URL that does not parse is not
    /// allowed; `ws:` and `wss:` count as the origins of `http:` and `https:`.
    pub fn allows(&self, url: &str) -> bool {
        let AllowedOrigins::Only { origins, schemes } = self else {
            return true;
        };
        let Ok(url) = url::Url::parse(url) else {
            return false;
        };
        if schemes.iter().any(|s| s == url.scheme()) {
            return true;
        }
        web_origin(&url).is_some_and(|origin| origins.contains(&origin))
    }
}

impl AllowedOrigins {
    /// Whether the pages may open a connection to `host` and `port` (`host` as a URL writes
    /// it: IPv6 in brackets): some allowed origin has that host and that port, the scheme's
    /// default port counting for an origin that names none. A connection carries no scheme,
    /// so an allowed `http` origin lets through `https` on the same host and port too.
    pub fn allows_socket(&self, host: &str, port: u16) -> bool {
        if self.is_any() {
            return true;
        }
        self.sockets()
            .iter()
            .any(|(allowed, at)| allowed.eq_ignore_ascii_case(host) && *at == port)
    }

    /// The host and port of every allowed origin, the only places [`Self::allows_socket`]
    /// lets a connection go (`host` as a URL writes it: IPv6 in brackets; the port always
    /// written, the scheme's default for an origin that names none). Empty for [`Self::Any`],
    /// which allows every socket.
    pub fn sockets(&self) -> Vec<(String, u16)> {
        let AllowedOrigins::Only { origins, .. } = self else {
            return Vec::new();
        };
        origins
            .iter()
            .filter_map(|origin| {
                let url = url::Url::parse(origin).ok()?;
                Some((url.host_str()?.to_owned(), url.port_or_known_default()?))
            })
            .collect()
    }
}

/// The serialized origin of an `http(s)` URL written as text, if it is one.
fn origin_of(url: &str) -> Option<String> {
    url::Url::parse(url.trim())
        .ok()
        .as_ref()
        .and_then(web_origin)
}

/// `scheme://host[:port]` of an `http`, `https`, `ws` or `wss` URL (`ws` as `http`), else
/// `None`.
fn web_origin(url: &url::Url) -> Option<String> {
    let scheme = match url.scheme() {
        "http" | "ws" => "http",
        "https" | "wss" => "https",
        _ => return None,
    };
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

/// Why an entry was refused: the message's end and a hint saying what to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Refusal {
    pub(super) problem: &'static str,
    pub(super) hint: String,
}

/// One entry: `*`, `about:`/`data:`/`blob:`/`file:`, or an `http(s)` origin (a trailing `/`
/// is tolerated; a path, query, fragment or credentials are not).
pub(super) fn parse_entry(entry: &str) -> Result<OriginEntry, Refusal> {
    let entry = entry.trim();
    if entry == "*" {
        return Ok(OriginEntry::Any);
    }
    let lower = entry.to_ascii_lowercase();
    let scheme = lower
        .strip_suffix("://")
        .or_else(|| lower.strip_suffix(':'));
    if let Some(scheme) = scheme.filter(|s| SCHEME_ENTRIES.contains(s)) {
        return Ok(OriginEntry::Scheme(scheme.to_owned()));
    }
    let example = "write an origin such as \"http://127.0.0.1:3000\" or \"https://cdn.example.com\", \
                   or one of \"about:\", \"data:\", \"blob:\", \"file:\", or \"*\" alone";
    let refused = |problem| Refusal {
        problem,
        hint: example.to_owned(),
    };
    let url = match url::Url::parse(entry) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => url,
        Ok(url) if matches!(url.scheme(), "ws" | "wss") => {
            return Err(Refusal {
                problem: "is a WebSocket URL",
                hint: "write the page origin it belongs to (http:// or https://): WebSockets \
                       follow the origins of http and https"
                    .to_owned(),
            });
        }
        _ => return Err(refused("is not an origin")),
    };
    let Some(origin) = web_origin(&url) else {
        return Err(refused("has no host"));
    };
    let shown = |problem| Refusal {
        problem,
        hint: format!("write \"{origin}\": an origin is a scheme, a host and a port, nothing more"),
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err(shown("has credentials"));
    }
    // The URL parser normalises `/../` and `//` away and drops an empty port, so the entry is
    // checked as written too: whatever follows the host and port must be nothing or one `/`.
    let (authority, rest) = split_authority(entry);
    if url.path() != "/" || !matches!(rest.split(['?', '#']).next(), Some("" | "/")) {
        return Err(shown("has a path"));
    }
    if url.query().is_some() || url.fragment().is_some() || entry.contains(['?', '#']) {
        return Err(shown("has a query or fragment"));
    }
    if port_text(authority) == Some("") || url.port() == Some(0) {
        return Err(Refusal {
            problem: "has no real port (1 to 65535)",
            hint: "write the port the app listens on, such as \"http://127.0.0.1:3000\", or no \
                   port for the scheme's default"
                .to_owned(),
        });
    }
    if let Some(url::Host::Domain(domain)) = url.host()
        && !is_host_name(domain)
    {
        return Err(Refusal {
            problem: "has no real host name",
            hint: "write one origin per entry, such as \"https://cdn.example.com\": the only \
                   wildcard is \"*\" alone, which allows every origin"
                .to_owned(),
        });
    }
    Ok(OriginEntry::Origin(origin))
}

/// The `host[:port]` of an entry written `scheme://host[:port]...`, and what follows it.
fn split_authority(entry: &str) -> (&str, &str) {
    let rest = entry.split_once("://").map_or("", |(_, rest)| rest);
    let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    rest.split_at(end)
}

/// The port of `host[:port]` as written (`Some("")` for a `:` with nothing after it).
fn port_text(authority: &str) -> Option<&str> {
    let host_end = match authority.strip_prefix('[') {
        Some(rest) => rest.find(']').map_or(authority.len(), |at| at + 2),
        None => 0,
    };
    let after_host = &authority[host_end..];
    after_host.rfind(':').map(|at| &after_host[at + 1..])
}

/// Whether `domain` (lowercase, IDNA-encoded by the URL parser) is a host name: dot-separated
/// labels of letters, digits, `-` and `_`, so that `*` or `*.example.com` is refused rather than
/// taken for a host no page can have.
fn is_host_name(domain: &str) -> bool {
    domain.trim_end_matches('.').split('.').all(|label| {
        !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

/// A whole list: each entry checked, `*` only alone.
pub(super) fn check_entries(entries: &[OriginEntry]) -> Result<(), Refusal> {
    if entries.len() > 1 && entries.contains(&OriginEntry::Any) {
        return Err(Refusal {
            problem: "lists \"*\" with other entries",
            hint: "\"*\" allows every origin and must be the only entry: write [\"*\"], or list \
                   the origins without it"
                .to_owned(),
        });
    }
    Ok(())
}

/// `PRETTYPLAY_BROWSER_ALLOWED_ORIGINS`: entries separated by commas (spaces around allowed).
pub(super) fn parse_env(value: &str) -> Option<Vec<OriginEntry>> {
    let entries = value
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|e| parse_entry(e).ok())
        .collect::<Option<Vec<_>>>()?;
    check_entries(&entries).ok()?;
    Some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(s: &str) -> OriginEntry {
        OriginEntry::Origin(s.to_owned())
    }

    #[test]
    fn entries_are_origins_schemes_or_a_star() {
        assert_eq!(parse_entry("*"), Ok(OriginEntry::Any));
        assert_eq!(
            parse_entry("http://127.0.0.1:3000"),
            Ok(origin("http://127.0.0.1:3000"))
        );
        assert_eq!(
            parse_entry(" HTTPS://CDN.Example.com:443/ "),
            Ok(origin("https://cdn.example.com"))
        );
        assert_eq!(
            parse_entry("http://[::1]:8080"),
            Ok(origin("http://[::1]:8080"))
        );
        for (entry, scheme) in [
            ("file:", "file"),
            ("FILE://", "file"),
            ("about:", "about"),
            ("data:", "data"),
            ("blob:", "blob"),
        ] {
            assert_eq!(
                parse_entry(entry),
                Ok(OriginEntry::Scheme(scheme.into())),
                "{entry}"
            );
        }
    }

    #[test]
    fn entries_with_more_than_an_origin_say_what_to_write() {
        for entry in [
            "http://127.0.0.1:3000/app",
            "http://127.0.0.1:3000//",
            "http://127.0.0.1:3000/?x=1",
            "http://127.0.0.1:3000#top",
            "http://user:pw@127.0.0.1:3000",
        ] {
            let refusal = parse_entry(entry).expect_err(entry);
            assert_eq!(
                refusal.hint,
                "write \"http://127.0.0.1:3000\": an origin is a scheme, a host and a port, \
                 nothing more",
                "{entry}"
            );
        }
        assert_eq!(
            parse_entry("http://x/app").expect_err("a path").problem,
            "has a path"
        );
        for entry in [
            "http://127.0.0.1:3000/../",
            "http://127.0.0.1:3000/./",
            "http://127.0.0.1:3000/a/..",
            "http://127.0.0.1:3000\\x",
        ] {
            assert_eq!(parse_entry(entry).expect_err(entry).problem, "has a path");
        }
        for entry in [
            "http://127.0.0.1:0",
            "http://x:",
            "http://[::1]:0/",
            "http://x:/",
        ] {
            assert_eq!(
                parse_entry(entry).expect_err(entry).problem,
                "has no real port (1 to 65535)",
                "{entry}"
            );
        }
        assert_eq!(
            parse_entry("http://x:65536")
                .expect_err("a big port")
                .problem,
            "is not an origin"
        );
        for entry in [
            "http://*",
            "https://*.example.com",
            "http://*:3000",
            "http://a..b",
        ] {
            let refusal = parse_entry(entry).expect_err(entry);
            assert_eq!(refusal.problem, "has no real host name", "{entry}");
            assert!(refusal.hint.contains("\"*\" alone"), "{entry}");
        }
        assert_eq!(
            parse_entry("http://my_app:8080/"),
            Ok(origin("http://my_app:8080"))
        );
        assert_eq!(
            parse_entry("https://bücher.example"),
            Ok(origin("https://xn--bcher-kva.example"))
        );
        for entry in [
            "127.0.0.1:3000",
            "localhost:3000",
            "ftp://x",
            "chrome:",
            "",
            "**",
        ] {
            let refusal = parse_entry(entry).expect_err(entry);
            assert_eq!(refusal.problem, "is not an origin", "{entry}");
            assert!(
                refusal.hint.contains("\"http://127.0.0.1:3000\""),
                "{entry}"
            );
        }
        assert_eq!(
            parse_entry("ws://x:1").expect_err("ws").problem,
            "is a WebSocket URL"
        );
        assert!(check_entries(&[OriginEntry::Any, origin("http://x")]).is_err());
        assert!(check_entries(&[OriginEntry::Any]).is_ok());
    }

    #[test]
    fn the_base_url_origin_and_implicit_schemes_are_always_allowed() {
        let allowed = AllowedOrigins::resolve(Some("http://127.0.0.1:8080/app/"), &[]);
        for url in [
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:8080/app/x.png?y#z",
            "ws://127.0.0.1:8080/socket",
            "about:blank",
            "data:text/html,<h1>x</h1>",
            "blob:http://127.0.0.1:8080/0b7e",
        ] {
            assert!(allowed.allows(url), "{url}");
        }
        for url in [
            "file:///etc/hostname",
            "http://127.0.0.1:8081/",
            "https://127.0.0.1:8080/",
            "http://localhost:8080/",
            "http://127.0.0.1:8080@evil.example/",
            "chrome://settings",
            "not a url",
            "/relative",
        ] {
            assert!(!allowed.allows(url), "{url}");
        }
        assert!(!allowed.is_any());
    }

    #[test]
    fn listed_entries_add_to_the_defaults_and_star_allows_all() {
        let allowed = AllowedOrigins::resolve(
            Some("http://a:1"),
            &[
                origin("https://cdn.example.com"),
                OriginEntry::Scheme("file".into()),
                origin("http://a:1"),
            ],
        );
        assert_eq!(
            allowed,
            AllowedOrigins::Only {
                origins: vec!["http://a:1".into(), "https://cdn.example.com".into()],
                schemes: vec!["about".into(), "data".into(), "blob".into(), "file".into()],
            }
        );
        assert!(allowed.allows("https://cdn.example.com:443/lib.js"));
        assert!(allowed.allows("file:///etc/hostname"));
        let any = AllowedOrigins::resolve(None, &[OriginEntry::Any]);
        assert!(any.is_any());
        assert!(any.allows("file:///etc/hostname"));
        // Without a base URL only the implicit schemes and the list are allowed.
        let bare = AllowedOrigins::resolve(None, &[]);
        assert!(bare.allows("about:blank"));
        assert!(!bare.allows("http://127.0.0.1:3000/"));
    }

    #[test]
    fn sockets_are_each_origins_host_and_port_with_the_default_port_written() {
        let allowed = AllowedOrigins::resolve(
            Some("http://127.0.0.1:8080/app/"),
            &[
                origin("https://cdn.example.com"),
                origin("http://[::1]:3000"),
                origin("http://app.test"),
            ],
        );
        assert_eq!(
            allowed.sockets(),
            [
                ("127.0.0.1".to_owned(), 8080),
                ("cdn.example.com".to_owned(), 443),
                ("[::1]".to_owned(), 3000),
                ("app.test".to_owned(), 80),
            ]
        );
        for (host, port) in allowed.sockets() {
            assert!(allowed.allows_socket(&host, port), "{host}:{port}");
        }
        assert!(allowed.allows_socket("CDN.example.com", 443));
        assert!(!allowed.allows_socket("cdn.example.com", 80));
        assert!(!allowed.allows_socket("127.0.0.1", 8081));
        assert!(
            !allowed.allows_socket("::1", 3000),
            "IPv6 is written in brackets"
        );
        let any = AllowedOrigins::resolve(None, &[OriginEntry::Any]);
        assert!(any.sockets().is_empty());
        assert!(any.allows_socket("127.0.0.1", 1));
    }

    #[test]
    fn the_variable_is_a_comma_separated_list() {
        assert_eq!(
            parse_env(" http://a:1 , https://b ,"),
            Some(vec![origin("http://a:1"), origin("https://b")])
        );
        assert_eq!(parse_env("*"), Some(vec![OriginEntry::Any]));
        assert_eq!(parse_env("*, http://a"), None);
        assert_eq!(parse_env("http://a/path"), None);
    }
}
