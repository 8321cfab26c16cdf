//! The HTTP sentences: a request sent with Playwright's `page.request` (`send POST /api/todos
//! with {"title": "milk"}`, `delete /api/todos/${ID}`), a check of its status (`GET /api/health
//! answers 200`) or of the string values of its body (`the API /api/todos lists "milk"`). They
//! are read from the raw sentence, not its tokens, because a JSON body has quotes, commas and
//! colons of its own.
//!
//! This file only reads; `http_code.rs` writes the request and its checks.
//!
//! Main function: [`parse`]; what it reads is an [`Http`].

use serde::de::IgnoredAny;

use crate::writer::builtin::http_js::{is_identifier, json_js, template_js, url_js};
use crate::writer::builtin::http_request::{Body, Http, Method, Request};
use crate::writer::builtin::intent::{Decline, Intent};

/// Words before the subject that say nothing a step does.
const FILLERS: &[&str] = &[
    "please", "then", "and", "now", "next", "finally", "first", "also", "lastly", "i", "we",
    "verify", "ensure", "confirm", "assert", "expect", "validate", "that",
];

/// Reads `sentence` as an HTTP sentence: `None` when it is not one (it names no method and path,
/// nor an API path), else its [`Intent::Http`] or why the generator declines it. `columns` are the
/// examples table's columns: `<name>` is a placeholder only for these.
pub(crate) fn parse(sentence: &str, columns: &[String]) -> Option<Result<Intent, Decline>> {
    let sentence = columns_as_placeholders(sentence, columns);
    let mut rest = sentence.trim();
    loop {
        let (word, after) = first_word(rest);
        let lower = word.trim_end_matches(',').to_ascii_lowercase();
        if FILLERS.contains(&lower.as_str()) {
            rest = after;
        } else if lower == "check" && first_word(after).0.eq_ignore_ascii_case("that") {
            rest = first_word(after).1;
        } else {
            break;
        }
    }
    let (subject, path_and_rest) = subject(rest)?;
    let (path, after_path) = first_word(path_and_rest);
    let mut path = unquote(path).unwrap_or(path).trim_end_matches([',', ';']);
    if !is_url(path) {
        return None;
    }
    if after_path.is_empty() {
        path = path.trim_end_matches(['.', '!']);
    }
    match request_sentence(subject, path, after_path) {
        Ok(Some(http)) => Some(Ok(Intent::Http(http))),
        // `/about is shown`: a bare path with no status or listing after it may be another shape.
        Ok(None) => None,
        Err(decline) => Some(Err(decline)),
    }
}

/// `sentence` with each `<column>` of the examples table written as `${column}`, so that one
/// kind of placeholder is left to read.
fn columns_as_placeholders(sentence: &str, columns: &[String]) -> String {
    let mut out = sentence.to_owned();
    for column in columns.iter().filter(|c| is_identifier(c)) {
        out = out.replace(&format!("<{column}>"), &format!("${{{column}}}"));
    }
    out
}

/// What names the request at the start of a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Subject {
    /// `send POST`, `a GET request to`, `DELETE`.
    Method(Method),
    /// `the API`, `the endpoint`: a GET.
    Api,
    /// The path alone: a GET, when a status or listing follows.
    Path,
}

/// The subject of `text` and the text from the path on, or `None` when the sentence starts
/// otherwise.
fn subject(text: &str) -> Option<(Subject, &str)> {
    let (mut word, mut rest) = first_word(text);
    for skipped in [
        &["send", "make", "do", "perform", "issue", "call"][..],
        &["a", "an", "the"],
    ] {
        if skipped.iter().any(|w| word.eq_ignore_ascii_case(w)) {
            (word, rest) = first_word(rest);
        }
    }
    if let Some(method) = Method::from_word(word) {
        for optional in ["request", "to", "at", "on"] {
            let (next, after) = first_word(rest);
            if next.eq_ignore_ascii_case(optional) {
                rest = after;
            }
        }
        return Some((Subject::Method(method), rest));
    }
    if ["api", "endpoint", "resource"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
    {
        let (next, after) = first_word(rest);
        if next.eq_ignore_ascii_case("endpoint") || next.eq_ignore_ascii_case("at") {
            rest = after;
        }
        return Some((Subject::Api, rest));
    }
    is_url(unquote(word).unwrap_or(word)).then_some((Subject::Path, text.trim_start()))
}

/// The first whitespace-separated word of `text` and the text after it.
fn first_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(at) => (&text[..at], text[at..].trim_start()),
        None => (text, ""),
    }
}

/// `text` without the quotes around it, if it is quoted.
fn unquote(text: &str) -> Option<&str> {
    [('"', '"'), ('\'', '\''), ('“', '”')]
        .iter()
        .find_map(|(open, close)| text.strip_prefix(*open)?.strip_suffix(*close))
}

/// A path (`/...`) or an absolute `http(s)://` URL.
fn is_url(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    (text.starts_with('/') && !text.starts_with("//"))
        || ["http://", "https://"]
            .iter()
            .any(|scheme| lower.starts_with(scheme) && lower.len() > scheme.len())
}

/// The request the subject and path start, its body, and what the rest of the sentence says of
/// it; `None` for a bare path that nothing after it makes a request.
fn request_sentence(subject: Subject, url: &str, rest: &str) -> Result<Option<Http>, Decline> {
    // The URL's placeholders are checked now, so that a bad one is declined before the code
    // is written.
    url_js(url)?;
    let mut request = Request {
        method: match subject {
            Subject::Method(method) => method,
            Subject::Api | Subject::Path => Method::Get,
        },
        url: url.to_owned(),
        body: None,
    };
    let mut rest = rest.trim();
    let (word, after) = first_word(rest);
    if word.eq_ignore_ascii_case("with") {
        let (body, after) = body(after)?;
        if request.method.reads() {
            return Err(Decline::new(format!(
                "a {} request sends no body; send the body with POST, PUT or PATCH",
                request.method.function().to_ascii_uppercase()
            )));
        }
        request.body = Some(body);
        rest = after;
    }
    let rest = rest.trim().trim_end_matches(['.', '!']).trim_end();
    if rest.is_empty() {
        if subject == Subject::Path {
            return Ok(None);
        }
        if subject == Subject::Api {
            return Err(Decline::new(
                "say what the API answers: `the API /path answers 200` or `the API /path lists \
                 \"TEXT\"`",
            ));
        }
        if request.method.reads() {
            return Err(Decline::new(format!(
                "a {} request changes nothing, so sending it alone checks nothing; say what it \
                 answers: `GET {url} answers 200` or `GET {url} lists \"TEXT\"`",
                request.method.function().to_ascii_uppercase()
            )));
        }
        return Ok(Some(Http::Send(request)));
    }
    if let Some(status) = status(rest)? {
        return Ok(Some(Http::Status { request, status }));
    }
    if let Some((values, listed)) = listing(rest)? {
        if request.method == Method::Head {
            return Err(Decline::new(
                "a HEAD response has no body to list values; use GET",
            ));
        }
        return Ok(Some(Http::Lists {
            request,
            values,
            listed,
        }));
    }
    if subject == Subject::Path {
        return Ok(None);
    }
    Err(Decline::new(format!(
        "after the request, `{rest}` is none of `with BODY`, `answers N` or `lists \"TEXT\"`"
    )))
}

/// `with [the] [JSON] [body] BODY`: the body and the text after it.
fn body(text: &str) -> Result<(Body, &str), Decline> {
    let mut text = text.trim_start();
    loop {
        let (word, after) = first_word(text);
        if ["the", "a", "json", "body", "data", "payload"]
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w))
        {
            text = after;
        } else {
            break;
        }
    }
    if text.starts_with('{') || text.starts_with('[') {
        let mut values = serde_json::Deserializer::from_str(text).into_iter::<IgnoredAny>();
        return match values.next() {
            Some(Ok(_)) => {
                let end = values.byte_offset();
                let json = &text[..end];
                // The code is checked now, so a bad placeholder or number is declined here.
                json_js(json)?;
                Ok((Body::Json(json.to_owned()), &text[end..]))
            }
            Some(Err(error)) => {
                let hint = if text.contains("${") {
                    " (a ${NAME} goes inside a JSON string: \"${NAME}\")"
                } else {
                    ""
                };
                Err(Decline::new(format!(
                    "the body is not valid JSON: {error}{hint}"
                )))
            }
            None => Err(Decline::new("the body is not valid JSON: it is empty")),
        };
    }
    if let Some((quoted, after)) = quoted_prefix(text) {
        template_js(quoted, false)?;
        return Ok((Body::Text(quoted.to_owned()), after));
    }
    if let Some((name, after)) = placeholder_prefix(text) {
        return Ok((Body::Text(name.to_owned()), after));
    }
    Err(Decline::new(
        "write the body after `with` as JSON (`with {\"title\": \"milk\"}`), a quoted text or a \
         ${NAME} variable",
    ))
}

/// A quoted text at the start of `text` (its inside) and the text after it.
fn quoted_prefix(text: &str) -> Option<(&str, &str)> {
    let open = text.chars().next()?;
    let close = match open {
        '"' => '"',
        '\'' => '\'',
        '“' => '”',
        _ => return None,
    };
    let inside = &text[open.len_utf8()..];
    let end = inside.find(close)?;
    Some((&inside[..end], &inside[end + close.len_utf8()..]))
}

/// A `${NAME}` at the start of `text` and the text after it.
fn placeholder_prefix(text: &str) -> Option<(&str, &str)> {
    if !text.starts_with("${") {
        return None;
    }
    let end = text.find('}')?;
    Some((&text[..=end], &text[end + 1..]))
}

/// `answers 200`, `returns a 404`, `responds with status 201 Created`, `should return HTTP
/// 204`: the status, `None` when `text` is no status clause.
fn status(text: &str) -> Result<Option<u16>, Decline> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.trim_end_matches([',', '.']).to_lowercase())
        .collect();
    let mut at = 0;
    if words
        .first()
        .is_some_and(|w| ["should", "must", "will"].contains(&w.as_str()))
    {
        at += 1;
    }
    const VERBS: &[&str] = &[
        "answers", "answer", "returns", "return", "responds", "respond", "gives", "give",
    ];
    if !words.get(at).is_some_and(|w| VERBS.contains(&w.as_str())) {
        return Ok(None);
    }
    at += 1;
    while words.get(at).is_some_and(|w| {
        [
            "with", "a", "an", "the", "status", "code", "http", "of", "response",
        ]
        .contains(&w.as_str())
    }) {
        at += 1;
    }
    let Some(number) = words.get(at) else {
        return Ok(None);
    };
    let Ok(status) = number.parse::<u16>() else {
        // `returns "milk"` lists a value; `answers OK` names no status.
        return if number.starts_with(['"', '\'', '“', '$', '<']) {
            Ok(None)
        } else {
            Err(Decline::new(format!(
                "name the status as a number: `answers 200` (not `{number}`)"
            )))
        };
    };
    if !(100..=599).contains(&status) {
        return Err(Decline::new(format!(
            "{status} is not an HTTP status (100 to 599)"
        )));
    }
    let reason = words[at + 1..].join(" ");
    if !reason.is_empty() && reason_phrase(status).is_none_or(|phrase| phrase != reason) {
        return Err(Decline::new(format!(
            "after the status {status} comes nothing but its reason phrase{}; one check per \
             step",
            reason_phrase(status)
                .map(|p| format!(" (`{p}`)"))
                .unwrap_or_default()
        )));
    }
    Ok(Some(status))
}

/// The reason phrase of a common status, lowercased.
fn reason_phrase(status: u16) -> Option<&'static str> {
    Some(match status {
        200 => "ok",
        201 => "created",
        202 => "accepted",
        204 => "no content",
        301 => "moved permanently",
        302 => "found",
        303 => "see other",
        304 => "not modified",
        307 => "temporary redirect",
        308 => "permanent redirect",
        400 => "bad request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not found",
        405 => "method not allowed",
        409 => "conflict",
        410 => "gone",
        422 => "unprocessable entity",
        429 => "too many requests",
        500 => "internal server error",
        502 => "bad gateway",
        503 => "service unavailable",
        _ => return None,
    })
}

/// `lists "milk"`, `contains "a" and "b"`, `does not list "milk"`, `no longer includes "x"`: the
/// values and whether they are listed, `None` when `text` is no listing clause.
fn listing(text: &str) -> Result<Option<(Vec<String>, bool)>, Decline> {
    let mut rest = text;
    let mut listed = true;
    let (word, after) = first_word(rest);
    let lower = word.to_lowercase().replace('’', "'");
    if ["should", "must", "will"].contains(&lower.as_str()) {
        rest = after;
        let (next, after) = first_word(rest);
        if next.eq_ignore_ascii_case("not") {
            listed = false;
            rest = after;
        }
    } else if ["does", "do"].contains(&lower.as_str())
        && first_word(after).0.eq_ignore_ascii_case("not")
    {
        listed = false;
        rest = first_word(after).1;
    } else if ["doesn't", "don't", "shouldn't", "mustn't", "won't", "never"]
        .contains(&lower.as_str())
    {
        listed = false;
        rest = after;
    } else if lower == "no" && first_word(after).0.eq_ignore_ascii_case("longer") {
        listed = false;
        rest = first_word(after).1;
    }
    let (verb, mut values_text) = first_word(rest);
    const VERBS: &[&str] = &[
        "lists", "list", "contains", "contain", "includes", "include", "returns", "return",
    ];
    if !VERBS.contains(&verb.to_lowercase().as_str()) {
        return Ok(None);
    }
    let mut values = Vec::new();
    loop {
        values_text = values_text.trim_start();
        for joiner in ["and ", "or ", ", ", ","] {
            if let Some(after) = values_text.strip_prefix(joiner) {
                values_text = after.trim_start();
            }
        }
        if values_text.is_empty() {
            break;
        }
        let (value, after) = quoted_prefix(values_text)
            .or_else(|| placeholder_prefix(values_text))
            .ok_or_else(|| {
                Decline::new(format!(
                    "write each value the API lists in quotes (\"milk\") or as a ${{NAME}} \
                     variable, not `{}`",
                    values_text.trim_end_matches(['.', '!'])
                ))
            })?;
        template_js(value, false)?;
        values.push(value.to_owned());
        values_text = after.trim_end_matches(['.', '!']);
    }
    if values.is_empty() {
        return Err(Decline::new(
            "write the value the API lists in quotes: `lists \"milk\"`",
        ));
    }
    Ok(Some((values, listed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::http_code::lines;
    use crate::writer::builtin::shapes::parse as parse_sentence;

    fn http(sentence: &str) -> Http {
        match parse_sentence(sentence, &[]) {
            Ok(Intent::Http(http)) => http,
            other => panic!("{sentence:?}: {other:?}"),
        }
    }

    fn code(sentence: &str) -> Vec<String> {
        lines(&http(sentence)).unwrap_or_else(|why| panic!("{sentence:?}: {}", why.0))
    }

    fn declined(sentence: &str) -> String {
        match parse_sentence(sentence, &[]) {
            Err(Decline(why, _)) => why,
            other => panic!("{sentence:?} was read: {other:?}"),
        }
    }

    /// The statements that read the string values of the response's body.
    const VALUES: [&str; 10] = [
        "const body = await response.text();",
        "const values = [];",
        "try {",
        "  JSON.parse(body, (key, value) => {",
        "    if (typeof value === 'string') values.push(value);",
        "    return value;",
        "  });",
        "} catch {",
        "  values.push(...body.split(/\\r?\\n/).map((line) => line.trim()));",
        "}",
    ];

    #[test]
    fn a_request_that_changes_something_must_be_accepted() {
        assert_eq!(
            code("send POST /api/todos with {\"title\": \"milk\"}"),
            [
                "const response = await page.request.post('/api/todos', { data: { title: 'milk' } });",
                "await expect(response).toBeOK();",
            ]
        );
        assert_eq!(
            code("delete /api/todos/${ID}"),
            [
                "const response = await page.request.delete(`/api/todos/${encodeURIComponent(vars.ID)}`);",
                "await expect(response).toBeOK();",
            ]
        );
        for (sentence, function) in [
            ("post /api/todos with {\"title\": \"milk\"}", "post"),
            (
                "Please send a PUT request to /api/todos/1 with {\"done\": true}.",
                "put",
            ),
            (
                "PATCH /api/todos/1 with the JSON body {\"done\": true}",
                "patch",
            ),
            ("then DELETE http://127.0.0.1:3000/api/todos/1", "delete"),
        ] {
            let Http::Send(request) = http(sentence) else {
                panic!("{sentence}")
            };
            assert_eq!(request.method.function(), function, "{sentence}");
        }
        assert_eq!(
            code("DELETE http://127.0.0.1:3000/api/todos/1.")[0],
            "const response = await page.request.delete('http://127.0.0.1:3000/api/todos/1');"
        );
    }

    #[test]
    fn a_status_is_checked_exactly() {
        let expected = [
            "const response = await page.request.get('/api/health');",
            "expect(response.status()).toBe(200);",
        ];
        for sentence in [
            "GET /api/health answers 200",
            "get /api/health returns 200 OK",
            "Verify that GET /api/health responds with status 200",
            "the API /api/health answers 200",
            "/api/health should return HTTP 200.",
            "a GET request to /api/health gives a 200",
        ] {
            assert_eq!(code(sentence), expected, "{sentence}");
        }
        assert_eq!(
            code("GET /api/todos/999 returns 404 Not Found")[1],
            "expect(response.status()).toBe(404);"
        );
        assert_eq!(
            code("POST /api/todos with {\"title\": \"\"} answers 422"),
            [
                "const response = await page.request.post('/api/todos', { data: { title: '' } });",
                "expect(response.status()).toBe(422);",
            ]
        );
        assert_eq!(
            code("HEAD /api/health answers 204")[0],
            "const response = await page.request.head('/api/health');"
        );
    }

    #[test]
    fn a_listed_value_is_a_whole_string_value_of_the_body() {
        let mut expected = vec![
            "const response = await page.request.get('/api/todos');".to_owned(),
            "await expect(response).toBeOK();".to_owned(),
        ];
        expected.extend(VALUES.map(str::to_owned));
        expected.push("expect(values).toContain('milk');".to_owned());
        for sentence in [
            "the API /api/todos lists \"milk\"",
            "/api/todos lists \"milk\"",
            "GET /api/todos returns \"milk\"",
            "check that the API endpoint /api/todos contains 'milk'.",
        ] {
            assert_eq!(code(sentence), expected, "{sentence}");
        }
        let both = code("the API /api/todos lists \"milk\" and \"bread\"");
        assert_eq!(
            both[both.len() - 2..],
            [
                "expect(values).toContain('milk');",
                "expect(values).toContain('bread');"
            ]
        );
        for sentence in [
            "the API /api/todos does not list \"milk\"",
            "the API /api/todos doesn't list \"milk\"",
            "the API /api/todos no longer lists \"milk\"",
            "/api/todos should not contain \"milk\"",
        ] {
            let lines = code(sentence);
            assert_eq!(
                lines.last().map(String::as_str),
                Some("expect(values).not.toContain('milk');"),
                "{sentence}"
            );
            assert_eq!(lines[1], "await expect(response).toBeOK();", "{sentence}");
        }
    }

    #[test]
    fn placeholders_read_vars() {
        assert_eq!(
            code("send POST /api/todos with {\"title\": \"${TITLE}\", \"note\": \"for ${WHO}!\"}")
                [0],
            "const response = await page.request.post('/api/todos', { data: { title: vars.TITLE, note: `for ${vars.WHO}!` } });"
        );
        assert_eq!(
            code("GET /api/todos?owner=${USER}&page=2 answers 200")[0],
            "const response = await page.request.get(`/api/todos?owner=${encodeURIComponent(vars.USER)}&page=2`);"
        );
        assert_eq!(
            code("the API /api/todos lists ${TITLE}").last().unwrap(),
            "expect(values).toContain(vars.TITLE);"
        );
        assert_eq!(
            code("send PUT /api/notes/1 with ${NOTE}")[0],
            "const response = await page.request.put('/api/notes/1', { data: vars.NOTE });"
        );
        // `<column>` is a placeholder for the examples table's columns only.
        let Ok(Intent::Http(with_column)) =
            parse_sentence("delete /api/todos/<id>", &["id".to_owned()])
        else {
            panic!()
        };
        assert_eq!(
            lines(&with_column).unwrap()[0],
            "const response = await page.request.delete(`/api/todos/${encodeURIComponent(vars.id)}`);"
        );
        assert_eq!(
            code("delete /api/todos/<id>")[0],
            "const response = await page.request.delete('/api/todos/<id>');"
        );
        assert!(declined("delete http://${HOST}/api/todos/1").contains("host"));
        assert!(declined("delete /api/todos/${ID").contains("does not close"));
        assert!(declined("delete /api/todos/${a.b}").contains("not a variable"));
        assert!(
            declined("send POST /api/todos with {\"title\": \"${x)+alert(1)+(y}\"}")
                .contains("not a variable")
        );
    }

    #[test]
    fn json_bodies_keep_their_order_numbers_and_keys() {
        assert_eq!(
            code(
                "send POST /api/items with {\"z\": 1.50, \"a\": [1, -2e3, null, false], \"b\": {}, \"x-y\": [], \"__proto__\": {\"admin\": true}}"
            )[0],
            "const response = await page.request.post('/api/items', { data: { z: 1.50, a: [1, -2e3, null, false], b: {}, 'x-y': [], ['__proto__']: { admin: true } } });"
        );
        assert_eq!(
            code("send POST /api/items with [\"a\", \"b\"]")[0],
            "const response = await page.request.post('/api/items', { data: ['a', 'b'] });"
        );
        assert_eq!(
            code("send POST /api/notes with \"plain text\"")[0],
            "const response = await page.request.post('/api/notes', { data: 'plain text' });"
        );
        assert!(declined("send POST /api/items with {\"id\": 9007199254740993}").contains("2^53"));
        assert_eq!(
            code("send POST /api/items with {\"id\": 9007199254740991}")[0],
            "const response = await page.request.post('/api/items', { data: { id: 9007199254740991 } });"
        );
    }

    #[test]
    fn invalid_json_is_declined_naming_what_is_wrong() {
        let why = declined("send POST /api/todos with {\"title\": milk}");
        assert!(why.starts_with("the body is not valid JSON: "), "{why}");
        assert!(why.contains("column"), "{why}");
        let why = declined("send POST /api/todos with {\"title\": \"milk\"");
        assert!(why.contains("not valid JSON"), "{why}");
        let why = declined("send POST /api/todos with {\"id\": ${ID}}");
        assert!(why.contains("goes inside a JSON string"), "{why}");
        let why = declined("send POST /api/todos with {'title': 'milk'}");
        assert!(why.contains("not valid JSON"), "{why}");
    }

    /// What the JavaScript expression `js` evaluates to, as JSON, with `vars` bound to `vars`
    /// (a JSON object).
    fn evaluate(js: &str, vars: &str) -> String {
        let runtime = rquickjs::Runtime::new().unwrap();
        let context = rquickjs::Context::full(&runtime).unwrap();
        context.with(|ctx| {
            ctx.eval::<String, _>(format!(
                "(function (vars) {{ return JSON.stringify({js}); }})({vars})"
            ))
            .unwrap_or_else(|e| panic!("{js}: {e}"))
        })
    }

    /// The argument of the request function's `data` option in the first line of `lines`.
    fn data_js(lines: &[String]) -> &str {
        let line = &lines[0];
        let start = line.find("{ data: ").unwrap() + "{ data: ".len();
        &line[start..line.len() - " });".len()]
    }

    #[test]
    fn values_cannot_escape_their_string() {
        // Quotes, backslashes, backticks, `$`, `${...}` and line breaks stay inside the literals:
        // the code evaluates to exactly the JSON the sentence writes, with the variables' values
        // where it has placeholders, so no sentence writes code of its own into the step.
        let json = r#"{"a": "it's \"q\" \\ `t` $ {x} \n\r \u2028 ok", "k'); alert(1); ('": "`; alert(1); `", "n": [1.5, 1.5e-3, null, true]}"#;
        let lines = code(&format!("send POST /api/x with {json}"));
        let sent: serde_json::Value =
            serde_json::from_str(&evaluate(data_js(&lines), "{}")).unwrap();
        assert_eq!(
            sent,
            serde_json::from_str::<serde_json::Value>(json).unwrap()
        );
        // A placeholder's value is data, whatever it holds.
        let lines = code(
            "send POST /api/x with {\"a\": \"${A}`${B}\", \"b\": \"x ${A} y\", \"c\": \"${B}\"}",
        );
        let evil = r#"{"A": "`; alert(1); ${x} '\"", "B": "\\"}"#;
        assert_eq!(
            evaluate(data_js(&lines), evil),
            r#"{"a":"`; alert(1); ${x} '\"`\\","b":"x `; alert(1); ${x} '\" y","c":"\\"}"#
        );
        // The URL: a quote in the path stays in the path, a variable is one encoded component.
        let lines = code("GET /api/x'y/${ID}?q=`1` answers 200");
        let url = lines[0]
            .strip_prefix("const response = await page.request.get(")
            .and_then(|l| l.strip_suffix(");"))
            .unwrap();
        assert_eq!(
            evaluate(url, r#"{"ID": "a/b?c=${d}'"}"#),
            r#""/api/x'y/a%2Fb%3Fc%3D%24%7Bd%7D'?q=`1`""#
        );
        // The listed values.
        let lines = code(r#"the API /api/x lists "a\'b`$" and 'c"d'"#);
        let n = lines.len();
        let arg = |line: &str| {
            line.strip_prefix("expect(values).toContain(")
                .and_then(|l| l.strip_suffix(");"))
                .unwrap()
                .to_owned()
        };
        assert_eq!(evaluate(&arg(&lines[n - 2]), "{}"), r#""a\\'b`$""#);
        assert_eq!(evaluate(&arg(&lines[n - 1]), "{}"), r#""c\"d""#);
        // `${...}` that is not a variable name is declined, never evaluated.
        let why = declined(r#"send POST /api/x with {"a": "${x}${alert(1)}"}"#);
        assert!(why.contains("not a variable"), "{why}");
        // That the check reader reads the whole step without tampering is tested with the
        // reader, in `engine/checks.rs`.
    }

    #[test]
    fn a_read_alone_or_with_a_body_is_declined() {
        assert!(declined("GET /api/health").contains("checks nothing"));
        assert!(declined("the API /api/health").contains("say what the API answers"));
        assert!(declined("GET /api/todos with {\"a\": 1}").contains("sends no body"));
        assert!(declined("HEAD /api/todos lists \"milk\"").contains("no body"));
        assert!(declined("GET /api/health answers OK").contains("as a number"));
        assert!(declined("GET /api/health answers 700").contains("not an HTTP status"));
        assert!(declined("GET /api/health answers 200 quickly").contains("reason phrase"));
        assert!(declined("GET /api/todos lists milk").contains("in quotes"));
        assert!(declined("POST /api/todos and wait").contains("none of"));
        assert!(declined("send POST /api/todos with").contains("write the body"));
    }

    #[test]
    fn the_generator_writes_the_step_whole_on_any_page() {
        // The body's commas and `and`s are not clauses, and no page element is needed.
        let code = crate::writer::builtin::write_step(
            "send POST /api/todos with {\"title\": \"milk, bread and eggs\", \"done\": false}",
            &[],
            "",
            "",
        )
        .unwrap();
        assert_eq!(
            code,
            "async function step(page) {\n  const response = await page.request.post('/api/todos', { data: { title: 'milk, bread and eggs', done: false } });\n  await expect(response).toBeOK();\n}"
        );
        let why = crate::writer::builtin::write_step(
            "send POST /api/todos with {\"title\": \"a\", and \"b\"}",
            &[],
            "",
            "",
        )
        .unwrap_err();
        assert!(why.0.contains("not valid JSON"), "{}", why.0);
        // Several requests, each a clause of its own, in blocks so that their names do not clash.
        let code = crate::writer::builtin::write_step(
            "GET /api/health answers 200 and the API /api/todos does not list \"milk, bread\"",
            &[],
            "",
            "",
        )
        .unwrap();
        assert!(
            code.starts_with("async function step(page) {\n  {\n    const response = await page.request.get('/api/health');\n    expect(response.status()).toBe(200);\n  }\n  {\n    const response = await page.request.get('/api/todos');\n"),
            "{code}"
        );
        assert!(
            code.ends_with("    expect(values).not.toContain('milk, bread');\n  }\n}"),
            "{code}"
        );
        // A summary before a colon, then the check it means.
        assert_eq!(
            parse_sentence("the todo is saved: the API /api/todos lists \"milk\"", &[]),
            parse_sentence("the API /api/todos lists \"milk\"", &[])
        );
    }

    #[test]
    fn ui_sentences_are_not_requests() {
        for sentence in [
            "delete the todo \"milk\"",
            "delete \"milk\"",
            "open /about",
            "go to /login.html",
            "the URL is \"/about\"",
            "post a comment",
            "get started",
            "the API docs are shown",
            "click the \"GET /api\" button",
            "remove //cdn.example.com",
            "/about is shown",
            "/about shows \"Welcome\"",
        ] {
            assert!(
                parse(sentence, &[]).is_none(),
                "{sentence:?} was read as a request"
            );
            assert!(
                !matches!(parse_sentence(sentence, &[]), Ok(Intent::Http(_))),
                "{sentence}"
            );
        }
        assert_eq!(
            parse_sentence("open /about", &[]),
            Ok(Intent::Open(Some(crate::writer::builtin::intent::Literal(
                "/about".into()
            ))))
        );
    }
}
