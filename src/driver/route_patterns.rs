//! The regular expressions (in JavaScript syntax) that tell the Playwright driver which
//! requests and WebSockets to route to the origin guard: those whose URL does not start with an
//! allowed origin. The driver matches them itself, so a request to an allowed origin never
//! reaches prettyplay. A pattern may match more than is blocked, because the guard decides, but
//! never less.
//!
//! Main items: [`request_pattern`] and [`web_socket_pattern`].

use crate::config::AllowedOrigins;

/// The pattern of the requests to route: every URL that does not start with an allowed origin
/// or scheme.
pub(crate) fn request_pattern(allowed: &AllowedOrigins) -> String {
    let AllowedOrigins::Only { origins, schemes } = allowed else {
        return "^$".to_owned();
    };
    let mut alternatives: Vec<String> = origins
        .iter()
        .map(|origin| format!("{}(?:[/?#]|$)", escape(origin)))
        .collect();
    alternatives.extend(schemes.iter().map(|scheme| format!("{}:", escape(scheme))));
    if alternatives.is_empty() {
        return "^".to_owned();
    }
    format!("^(?!{})", alternatives.join("|"))
}

/// The pattern of the WebSockets to route: those whose URL does not start with an allowed
/// origin written with `ws` or `wss`.
pub(crate) fn web_socket_pattern(allowed: &AllowedOrigins) -> String {
    let AllowedOrigins::Only { origins, .. } = allowed else {
        return "^$".to_owned();
    };
    let alternatives: Vec<String> = origins
        .iter()
        .filter_map(|origin| {
            let socket = if let Some(rest) = origin.strip_prefix("https://") {
                format!("wss://{rest}")
            } else {
                format!("ws://{}", origin.strip_prefix("http://")?)
            };
            Some(format!("{}(?:[/?#]|$)", escape(&socket)))
        })
        .collect();
    if alternatives.is_empty() {
        return "^".to_owned();
    }
    format!("^(?!{})", alternatives.join("|"))
}

/// Escapes the characters of `text` that are special in JavaScript regular expressions.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(origins: &[&str]) -> AllowedOrigins {
        AllowedOrigins::Only {
            origins: origins.iter().map(|o| (*o).to_owned()).collect(),
            schemes: vec!["about".into(), "data".into(), "blob".into()],
        }
    }

    /// What the driver would route, with the regex crate standing in for JavaScript's (the
    /// pattern avoids every construct on which they differ, except the lookahead, which the
    /// check below emulates).
    fn routed(pattern: &str, url: &str) -> bool {
        let inner = pattern
            .strip_prefix("^(?!")
            .and_then(|p| p.strip_suffix(')'))
            .expect("a negative lookahead");
        let allowed = regex::Regex::new(&format!("^(?:{inner})")).expect("a regex");
        !allowed.is_match(url)
    }

    #[test]
    fn the_driver_routes_only_urls_off_the_allowed_origins() {
        let allowed = only(&["http://127.0.0.1:8080", "https://cdn.example.com"]);
        let pattern = request_pattern(&allowed);
        assert_eq!(
            pattern,
            r"^(?!http://127\.0\.0\.1:8080(?:[/?#]|$)|https://cdn\.example\.com(?:[/?#]|$)|about:|data:|blob:)"
        );
        for url in [
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:8080/app.js?v=1",
            "https://cdn.example.com/lib.js",
            "data:image/png;base64,xx",
        ] {
            assert!(!routed(&pattern, url), "{url}");
        }
        for url in [
            "http://127.0.0.1:8081/",
            "http://127.0.0.1:80800/",
            "http://127.0.0.1:8080.evil.example/",
            "http://127.0.0.1:8080@evil.example/",
            "https://127.0.0.1:8080/",
            "https://cdn.example.com.evil/",
        ] {
            assert!(routed(&pattern, url), "{url}");
            assert!(!allowed.allows(url), "{url}");
        }
    }

    #[test]
    fn sockets_are_routed_off_the_allowed_origins_written_as_sockets() {
        let allowed = only(&["http://127.0.0.1:8080", "https://cdn.example.com"]);
        let pattern = web_socket_pattern(&allowed);
        assert!(!routed(&pattern, "ws://127.0.0.1:8080/live"));
        assert!(!routed(&pattern, "wss://cdn.example.com/"));
        assert!(routed(&pattern, "ws://127.0.0.1:8081/"));
        assert!(routed(&pattern, "ws://cdn.example.com/"));
    }
}
