//! The code of the HTTP sentences (read by `http.rs`): a request sent with Playwright's
//! `page.request`, then that the server accepted it, its exact status, or the string values its
//! body lists. The values in it are written by `http_js.rs`.
//!
//! Main function: [`lines`].

use crate::writer::builtin::http_js::{json_js, template_js, url_js};
use crate::writer::builtin::http_request::{Body, Http};
use crate::writer::builtin::intent::Decline;

/// The step code of `http`, one statement a line.
pub(crate) fn lines(http: &Http) -> Result<Vec<String>, Decline> {
    let request = match http {
        Http::Send(request) | Http::Status { request, .. } | Http::Lists { request, .. } => request,
    };
    let mut args = url_js(&request.url)?;
    match &request.body {
        None => {}
        Some(Body::Json(json)) => args.push_str(&format!(", {{ data: {} }}", json_js(json)?)),
        Some(Body::Text(text)) => {
            args.push_str(&format!(", {{ data: {} }}", template_js(text, false)?));
        }
    }
    let mut lines = vec![format!(
        "const response = await page.request.{}({args});",
        request.method.function()
    )];
    match http {
        // A seed or a cleanup the server refuses fails the step.
        Http::Send(_) => lines.push("await expect(response).toBeOK();".to_owned()),
        Http::Status { status, .. } => {
            lines.push(format!("expect(response.status()).toBe({status});"));
        }
        Http::Lists { values, listed, .. } => {
            // An error page neither lists nor leaves out anything.
            lines.push("await expect(response).toBeOK();".to_owned());
            // The whole string values of a JSON body (never its keys, never part of a value),
            // else the lines of a text body.
            lines.extend(
                [
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
                ]
                .map(str::to_owned),
            );
            let not = if *listed { "" } else { ".not" };
            for value in values {
                lines.push(format!(
                    "expect(values){not}.toContain({});",
                    template_js(value, false)?
                ));
            }
        }
    }
    Ok(lines)
}
