//! Reading the proofs of a cache file as text: format 5 writes each entry's `proof` as a table
//! (`proof = { proven = ["hidden"] }`); tests that assert what was proven compare the record's
//! text (`proof = "proven: hidden"`), the form reports show.

use prettyplay::cache::ProofRecord;

/// `cache` with every `proof = { ... }` line written as the record's text, `proof = "..."`.
pub(crate) fn proofs_as_text(cache: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Line {
        proof: ProofRecord,
    }
    let mut out = String::with_capacity(cache.len());
    for line in cache.split_inclusive('\n') {
        let record = line
            .trim_start()
            .starts_with("proof = {")
            .then(|| toml::from_str::<Line>(line.trim()))
            .and_then(Result::ok);
        match record {
            Some(Line { proof }) => {
                let indent = &line[..line.len() - line.trim_start().len()];
                let text = serde_json::to_string(&proof.to_string()).unwrap_or_default();
                out.push_str(&format!("{indent}proof = {text}\n"));
            }
            None => out.push_str(line),
        }
    }
    out
}
