//! An HTTP method of a request step code sends, as a small value that copies: a
//! [`FailureKind`](crate::script::FailureKind) that names the method of a refused request
//! stays `Copy`.
//!
//! Main type: [`HttpMethod`].

use std::fmt;

/// An HTTP method's name in capitals (`GET`, `POST`, `PURGE`): 1 to [`HttpMethod::MAX`] ASCII
/// letters.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct HttpMethod {
    letters: [u8; HttpMethod::MAX],
    len: u8,
}

impl HttpMethod {
    /// The longest method name step code may send; registered methods are shorter.
    pub(crate) const MAX: usize = 24;

    /// The method named `name` (any case), or `None` unless it is 1 to [`HttpMethod::MAX`]
    /// ASCII letters.
    pub(crate) fn new(name: &str) -> Option<Self> {
        let len = name.len();
        if !(1..=Self::MAX).contains(&len) || !name.bytes().all(|b| b.is_ascii_alphabetic()) {
            return None;
        }
        let mut letters = [0; Self::MAX];
        for (at, byte) in name.bytes().enumerate() {
            letters[at] = byte.to_ascii_uppercase();
        }
        Some(Self {
            letters,
            len: len as u8,
        })
    }

    /// The name, in capitals.
    pub(crate) fn as_str(&self) -> &str {
        // ASCII letters only (see `new`), so always UTF-8.
        std::str::from_utf8(&self.letters[..usize::from(self.len)]).unwrap_or_default()
    }

    /// Whether a request with this method only reads (GET, HEAD): a proof run sends no other.
    pub(crate) fn reads(self) -> bool {
        matches!(self.as_str(), "GET" | "HEAD")
    }
}

impl fmt::Display for HttpMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for HttpMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HttpMethod({})", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_is_letters_in_capitals() {
        assert_eq!(HttpMethod::new("post").unwrap().as_str(), "POST");
        assert_eq!(HttpMethod::new("PURGE").unwrap().to_string(), "PURGE");
        for bad in ["", "GET /x", "M-SEARCH", &"A".repeat(HttpMethod::MAX + 1)] {
            assert_eq!(HttpMethod::new(bad), None, "{bad:?}");
        }
        assert!(HttpMethod::new(&"A".repeat(HttpMethod::MAX)).is_some());
    }

    #[test]
    fn only_get_and_head_read() {
        let reads = |m: &str| HttpMethod::new(m).unwrap().reads();
        assert!(reads("GET") && reads("head"));
        assert!(!reads("POST") && !reads("DELETE") && !reads("PURGE"));
    }
}
