//! The demo tasks app's JSON API (`demo/tasks/`), served by the static server under `/api/`:
//! a list of todos kept in memory for as long as the server runs, shared by every browser
//! context, so tests seed and clean up through it. `demo/server.py` serves the same API for
//! the tutorial.
//!
//! Main function: [`answer`]. Routes: `GET /api/health`; `GET`, `POST` and `DELETE` (all)
//! `/api/todos`; `GET`, `PATCH` and `DELETE` `/api/todos/ID`. Bodies are JSON; a todo is
//! `{"id": 1, "title": "milk", "completed": false}`.

use std::sync::Mutex;

use serde_json::{Value, json};

/// The todos, in the order they were created, and the next id.
#[derive(Default)]
pub(crate) struct Todos {
    items: Vec<Value>,
    next_id: u64,
}

/// An answer: the status line's code and reason, and the JSON body (`None`: no content).
pub(crate) type Answer = (&'static str, Option<Value>);

/// Answers one API request (`path` without its query).
pub(crate) fn answer(todos: &Mutex<Todos>, method: &str, path: &str, body: &[u8]) -> Answer {
    let Ok(mut todos) = todos.lock() else {
        return (
            "500 Internal Server Error",
            Some(json!({ "error": "the store failed" })),
        );
    };
    let rest = path.trim_end_matches('/');
    match (method, rest) {
        ("GET" | "HEAD", "/api/health") => ("200 OK", Some(json!({ "status": "ok" }))),
        ("GET" | "HEAD", "/api/todos") => ("200 OK", Some(Value::Array(todos.items.clone()))),
        ("POST", "/api/todos") => match new_todo(body, &mut todos) {
            Ok(todo) => ("201 Created", Some(todo)),
            Err(why) => ("400 Bad Request", Some(json!({ "error": why }))),
        },
        ("DELETE", "/api/todos") => {
            todos.items.clear();
            ("204 No Content", None)
        }
        (_, "/api/health" | "/api/todos") => method_not_allowed(),
        _ => match rest.strip_prefix("/api/todos/").map(str::parse::<u64>) {
            Some(Ok(id)) => one(&mut todos, method, id, body),
            _ => (
                "404 Not Found",
                Some(json!({ "error": format!("no route {path}") })),
            ),
        },
    }
}

fn method_not_allowed() -> Answer {
    (
        "405 Method Not Allowed",
        Some(json!({ "error": "method not allowed" })),
    )
}

fn one(todos: &mut Todos, method: &str, id: u64, body: &[u8]) -> Answer {
    let Some(at) = todos.items.iter().position(|t| t["id"] == id) else {
        return (
            "404 Not Found",
            Some(json!({ "error": format!("no todo {id}") })),
        );
    };
    match method {
        "GET" | "HEAD" => ("200 OK", Some(todos.items[at].clone())),
        "DELETE" => {
            todos.items.remove(at);
            ("204 No Content", None)
        }
        "PATCH" => match changes(body) {
            Ok(fields) => {
                let todo = &mut todos.items[at];
                for (key, value) in fields {
                    todo[key] = value;
                }
                ("200 OK", Some(todo.clone()))
            }
            Err(why) => ("400 Bad Request", Some(json!({ "error": why }))),
        },
        _ => method_not_allowed(),
    }
}

fn new_todo(body: &[u8], todos: &mut Todos) -> Result<Value, String> {
    let fields = changes(body)?;
    let title = fields
        .iter()
        .find(|(k, _)| k == "title")
        .map(|(_, v)| v.clone())
        .ok_or("a todo needs a title")?;
    let completed = fields
        .iter()
        .find(|(k, _)| k == "completed")
        .map_or(json!(false), |(_, v)| v.clone());
    todos.next_id += 1;
    let todo = json!({ "id": todos.next_id, "title": title, "completed": completed });
    todos.items.push(todo.clone());
    Ok(todo)
}

/// The fields a body sets: `title` (a non-empty string) and `completed` (a boolean).
fn changes(body: &[u8]) -> Result<Vec<(String, Value)>, String> {
    let value: Value =
        serde_json::from_slice(body).map_err(|err| format!("the body is not JSON: {err}"))?;
    let object = value.as_object().ok_or("the body must be a JSON object")?;
    let mut fields = Vec::new();
    for (key, value) in object {
        match (key.as_str(), value) {
            ("title", Value::String(title)) if !title.trim().is_empty() => {
                fields.push((key.clone(), json!(title.trim())));
            }
            ("completed", Value::Bool(_)) => fields.push((key.clone(), value.clone())),
            ("title", _) => return Err("title must be a non-empty string".to_owned()),
            ("completed", _) => return Err("completed must be true or false".to_owned()),
            _ => return Err(format!("a todo has no field {key:?}")),
        }
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn todos_are_created_listed_changed_and_deleted() {
        let todos = Mutex::new(Todos::default());
        let (status, todo) = answer(&todos, "POST", "/api/todos", br#"{"title": " milk "}"#);
        assert_eq!(status, "201 Created");
        assert_eq!(
            todo.unwrap(),
            json!({ "id": 1, "title": "milk", "completed": false })
        );
        let (_, list) = answer(&todos, "GET", "/api/todos", b"");
        assert_eq!(list.unwrap()[0]["title"], "milk");
        let (status, todo) = answer(&todos, "PATCH", "/api/todos/1", br#"{"completed": true}"#);
        assert_eq!(
            (status, todo.unwrap()["completed"].clone()),
            ("200 OK", json!(true))
        );
        assert_eq!(
            answer(&todos, "DELETE", "/api/todos/1", b"").0,
            "204 No Content"
        );
        assert_eq!(
            answer(&todos, "GET", "/api/todos/1", b"").0,
            "404 Not Found"
        );
        assert_eq!(answer(&todos, "GET", "/api/todos", b"").1, Some(json!([])));
    }

    #[test]
    fn bad_bodies_and_routes_are_refused() {
        let todos = Mutex::new(Todos::default());
        for body in [
            &b"nope"[..],
            b"[]",
            br#"{"title": ""}"#,
            br#"{"title": "a", "x": 1}"#,
        ] {
            assert_eq!(
                answer(&todos, "POST", "/api/todos", body).0,
                "400 Bad Request"
            );
        }
        assert_eq!(
            answer(&todos, "PUT", "/api/todos", b"").0,
            "405 Method Not Allowed"
        );
        assert_eq!(
            answer(&todos, "GET", "/api/nothing", b"").0,
            "404 Not Found"
        );
        assert_eq!(answer(&todos, "GET", "/api/health", b"").0, "200 OK");
    }
}
