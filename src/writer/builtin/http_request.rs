//! What an HTTP sentence asks for: a request sent with Playwright's `page.request`, or a check
//! of its status or of the values its body lists. `http.rs` reads sentences into it; its code is
//! written from it.
//!
//! Main type: [`Http`].

/// An HTTP method `page.request` has a function for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
    Head,
}

impl Method {
    pub(super) fn from_word(word: &str) -> Option<Self> {
        Some(match word.to_ascii_lowercase().as_str() {
            "get" => Self::Get,
            "post" => Self::Post,
            "put" => Self::Put,
            "patch" => Self::Patch,
            "delete" => Self::Delete,
            "head" => Self::Head,
            _ => return None,
        })
    }

    /// The name of `page.request`'s function.
    pub(super) fn function(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::Post => "post",
            Self::Put => "put",
            Self::Patch => "patch",
            Self::Delete => "delete",
            Self::Head => "head",
        }
    }

    /// Whether the request only reads: sending it alone checks nothing.
    pub(super) fn reads(self) -> bool {
        matches!(self, Self::Get | Self::Head)
    }
}

/// The body a request sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Body {
    /// JSON as written in the sentence (validated), sent as an object (`data: { ... }`).
    Json(String),
    /// A quoted text or a placeholder, sent as it is.
    Text(String),
}

/// A request as the sentence writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    pub method: Method,
    /// `/path` or an `http(s)://` URL, placeholders as written.
    pub url: String,
    pub body: Option<Body>,
}

/// What an HTTP sentence asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Http {
    /// Send the request; the server must accept it (a 2xx status).
    Send(Request),
    /// The request's response has this status.
    Status { request: Request, status: u16 },
    /// The response's body holds (or, `listed: false`, does not hold) each value as a whole
    /// string value of its JSON, or as a whole line of a body that is not JSON.
    Lists {
        request: Request,
        values: Vec<String>,
        listed: bool,
    },
}

impl Http {
    /// Whether the sentence checks something (else it only sends).
    pub(crate) fn is_check(&self) -> bool {
        !matches!(self, Http::Send(_))
    }
}
