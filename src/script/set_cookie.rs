//! Cookies between step code's HTTP requests and the test's browser context, read and matched
//! as Playwright's `APIRequestContext` reads and matches them (`cookieStore.ts`, `fetch.ts`):
//! the `Set-Cookie` headers of a response become cookies of the context, and the context's
//! cookies for a URL become the request's `Cookie` header.
//!
//! Main type: [`SetCookie`].

use serde_json::{Value, json};

/// The latest expiry Playwright accepts: the last second of the year 9999.
const LATEST_EXPIRY: f64 = 253_402_300_799.0;

/// One cookie a response set, as the context's `addCookies` takes it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SetCookie {
    name: String,
    value: String,
    domain: String,
    path: String,
    /// Unix time in seconds; -1 for a session cookie and 0 for one already expired.
    expires: f64,
    http_only: bool,
    secure: bool,
    same_site: &'static str,
}

impl SetCookie {
    /// The cookies of a response from `url` with these `Set-Cookie` values, as Playwright
    /// keeps them: a cookie with no domain gets the URL's host, one for another domain is
    /// dropped, and one with no path (or a relative one) gets the URL's directory. `now` is
    /// the Unix time in seconds, from which `Max-Age` counts.
    pub(crate) fn of_response<'a>(
        url: &url::Url,
        headers: impl IntoIterator<Item = &'a str>,
        now: f64,
    ) -> Vec<SetCookie> {
        let host = url.host_str().unwrap_or_default();
        let path = url.path();
        let directory = format!(
            "/{}",
            path.get(1..)
                .unwrap_or_default()
                .rsplit_once('/')
                .map_or("", |(dir, _)| dir)
        );
        headers
            .into_iter()
            .filter_map(|header| SetCookie::parse(header, now))
            .filter_map(|mut cookie| {
                if cookie.domain.is_empty() {
                    cookie.domain = host.to_owned();
                }
                if !domain_matches(host, &cookie.domain) {
                    return None;
                }
                if !cookie.path.starts_with('/') {
                    cookie.path.clone_from(&directory);
                }
                Some(cookie)
            })
            .collect()
    }

    /// Reads one `Set-Cookie` value (Playwright's `parseRawCookie`): `name=value` and then the
    /// attributes it knows, the others ignored.
    fn parse(header: &str, now: f64) -> Option<SetCookie> {
        let mut pairs = header
            .split(';')
            .filter(|part| !part.trim().is_empty())
            .map(|part| match part.split_once('=') {
                Some((key, value)) => (key.trim(), value.trim()),
                None => (part.trim(), ""),
            });
        let (name, value) = pairs.next()?;
        let mut cookie = SetCookie {
            name: name.to_owned(),
            value: value.to_owned(),
            domain: String::new(),
            path: String::new(),
            expires: -1.0,
            http_only: false,
            secure: false,
            same_site: "Lax",
        };
        let mut max_age = None;
        for (key, value) in pairs {
            match key.to_ascii_lowercase().as_str() {
                "expires" => {
                    if let Some(at) = http_date(value) {
                        cookie.expires = if at <= 0.0 {
                            0.0
                        } else {
                            at.min(LATEST_EXPIRY)
                        };
                    }
                }
                "max-age" => {
                    let digits = value.strip_prefix('-').unwrap_or(value);
                    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                        let seconds = value.parse::<f64>().unwrap_or(0.0);
                        max_age = Some(if seconds <= 0.0 {
                            0.0
                        } else {
                            (now + seconds).min(LATEST_EXPIRY)
                        });
                    }
                }
                "domain" => {
                    cookie.domain = value.to_lowercase();
                    if !cookie.domain.starts_with('.') && cookie.domain.contains('.') {
                        cookie.domain.insert(0, '.');
                    }
                }
                "path" => cookie.path = value.to_owned(),
                "secure" => cookie.secure = true,
                "httponly" => cookie.http_only = true,
                "samesite" => match value.to_ascii_lowercase().as_str() {
                    "none" => cookie.same_site = "None",
                    "lax" => cookie.same_site = "Lax",
                    "strict" => cookie.same_site = "Strict",
                    _ => {}
                },
                _ => {}
            }
        }
        if let Some(expires) = max_age {
            cookie.expires = expires;
        }
        Some(cookie)
    }

    /// The cookie as the protocol's `addCookies` takes it.
    pub(crate) fn to_value(&self) -> Value {
        json!({
            "name": self.name,
            "value": self.value,
            "domain": self.domain,
            "path": self.path,
            "expires": self.expires,
            "httpOnly": self.http_only,
            "secure": self.secure,
            "sameSite": self.same_site,
        })
    }
}

/// Whether a cookie of the context (`domain`, `path`, `secure`) goes with a request to `url`
/// (Playwright's `Cookie.matches`, after the context's own filter by URL). A secure cookie
/// goes to a local host over plain HTTP too.
pub(crate) fn cookie_matches(url: &url::Url, domain: &str, path: &str, secure: bool) -> bool {
    let host = url.host_str().unwrap_or_default();
    if secure && url.scheme() != "https" && !is_local_host(host) {
        return false;
    }
    domain_matches(host, domain) && path_matches(url.path(), path)
}

fn domain_matches(host: &str, domain: &str) -> bool {
    host == domain || (domain.starts_with('.') && format!(".{host}").ends_with(domain))
}

fn path_matches(path: &str, cookie_path: &str) -> bool {
    if path == cookie_path {
        return true;
    }
    let with_slash = |p: &str| {
        if p.ends_with('/') {
            p.to_owned()
        } else {
            format!("{p}/")
        }
    };
    with_slash(path).starts_with(&with_slash(cookie_path))
}

fn is_local_host(host: &str) -> bool {
    let loopback_v4 = host
        .strip_prefix("127.")
        .is_some_and(|rest| rest.split('.').count() == 3);
    host == "localhost" || host.ends_with(".localhost") || host == "[::1]" || loopback_v4
}

/// An `Expires` date as Unix seconds: the HTTP date forms servers write (RFC 1123, and the
/// Netscape form with dashes between day, month and year).
fn http_date(text: &str) -> Option<f64> {
    let parser = jiff::fmt::rfc2822::DateTimeParser::new();
    let dashed = text.replacen('-', " ", 2);
    let at = parser
        .parse_timestamp(text)
        .or_else(|_| parser.parse_timestamp(&dashed))
        .ok()?;
    Some(at.as_millisecond() as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_700_000_000.0;

    fn set(url: &str, headers: &[&str]) -> Vec<SetCookie> {
        SetCookie::of_response(&url::Url::parse(url).unwrap(), headers.iter().copied(), NOW)
    }

    #[test]
    fn a_cookie_takes_the_responses_host_and_directory_unless_it_names_its_own() {
        let cookies = set(
            "http://127.0.0.1:4000/api/v1/login?x=1",
            &[
                "sid=abc; HttpOnly",
                "theme = dark ; Path=/; SameSite=strict; Secure",
            ],
        );
        assert_eq!(cookies.len(), 2);
        let sid = &cookies[0];
        assert_eq!(
            (sid.name.as_str(), sid.value.as_str(), sid.domain.as_str()),
            ("sid", "abc", "127.0.0.1")
        );
        assert_eq!(sid.path, "/api/v1");
        assert!(sid.http_only && !sid.secure);
        assert_eq!((sid.expires, sid.same_site), (-1.0, "Lax"));
        let theme = &cookies[1];
        assert_eq!(
            (theme.name.as_str(), theme.value.as_str()),
            ("theme", "dark")
        );
        assert_eq!((theme.path.as_str(), theme.same_site), ("/", "Strict"));
        assert!(theme.secure);
        assert_eq!(set("http://a.test/x", &["a=1"])[0].path, "/");
        assert_eq!(set("http://a.test/x", &["a=1; Path=rel"])[0].path, "/");
    }

    #[test]
    fn a_cookie_for_another_domain_is_dropped_and_a_parent_domain_kept() {
        let kept = set("http://app.example.com/", &["a=1; Domain=example.com"]);
        assert_eq!(kept[0].domain, ".example.com");
        assert!(set("http://app.example.com/", &["a=1; Domain=other.com"]).is_empty());
        assert_eq!(
            set("http://localhost:3000/", &["a=1; Domain=localhost"])[0].domain,
            "localhost"
        );
        assert!(set("http://a.test/", &["", " ; "]).is_empty());
    }

    #[test]
    fn expiry_comes_from_max_age_before_expires() {
        let cookies = set(
            "http://a.test/",
            &[
                "a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
                "b=1; Expires=Wed, 21-Oct-2015 07:28:00 GMT",
                "c=1; Max-Age=60; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
                "d=1; Max-Age=0",
                "e=1; Max-Age=soon",
                "f=1; Expires=not a date",
                "g=1; Max-Age=99999999999999",
            ],
        );
        let expires: Vec<f64> = cookies.iter().map(|c| c.expires).collect();
        assert_eq!(
            expires,
            [
                1_445_412_480.0,
                1_445_412_480.0,
                NOW + 60.0,
                0.0,
                -1.0,
                -1.0,
                LATEST_EXPIRY
            ]
        );
    }

    #[test]
    fn a_context_cookie_goes_with_requests_to_its_domain_path_and_scheme() {
        let url = |u: &str| url::Url::parse(u).unwrap();
        assert!(cookie_matches(
            &url("http://a.test/api/x"),
            "a.test",
            "/api",
            false
        ));
        assert!(cookie_matches(
            &url("http://b.a.test/api"),
            ".a.test",
            "/",
            false
        ));
        assert!(!cookie_matches(
            &url("http://a.test/apix"),
            "a.test",
            "/api",
            false
        ));
        assert!(!cookie_matches(
            &url("http://b.test/"),
            "a.test",
            "/",
            false
        ));
        assert!(!cookie_matches(&url("http://a.test/"), "a.test", "/", true));
        assert!(cookie_matches(&url("https://a.test/"), "a.test", "/", true));
        assert!(cookie_matches(
            &url("http://127.0.0.1:9/"),
            "127.0.0.1",
            "/",
            true
        ));
        assert!(cookie_matches(
            &url("http://localhost/"),
            "localhost",
            "/",
            true
        ));
    }

    #[test]
    fn the_protocol_value_names_every_field() {
        let cookie = &set("http://a.test/", &["a=1; HttpOnly"])[0];
        assert_eq!(
            cookie.to_value(),
            json!({ "name": "a", "value": "1", "domain": "a.test", "path": "/",
                    "expires": -1.0, "httpOnly": true, "secure": false, "sameSite": "Lax" })
        );
    }
}
