#!/usr/bin/env python3
"""The demo's server: serves the files of this directory and the tasks app's JSON API.

    python3 server.py [PORT]          (default 4173, on 127.0.0.1)

API (JSON bodies; a todo is {"id": 1, "title": "milk", "completed": false}):
    GET /api/health                   {"status": "ok"}
    GET /api/todos                    every todo, oldest first
    POST /api/todos                   {"title": ..., "completed": false?} -> 201 and the todo
    DELETE /api/todos                 deletes every todo -> 204
    GET|PATCH|DELETE /api/todos/ID    one todo (PATCH takes title and/or completed)

The todos live in memory as long as the server runs, shared by every browser. The tests'
server (tests/it/support/todo_api.rs) answers the same way. Python's standard library only.
"""

import json
import os
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 1024 * 1024
TODOS = []
NEXT_ID = [0]
LOCK = threading.Lock()


def changes(body):
    """The fields a body sets, or an error message."""
    try:
        value = json.loads(body or b"")
    except ValueError as err:
        return None, "the body is not JSON: %s" % err
    if not isinstance(value, dict):
        return None, "the body must be a JSON object"
    fields = {}
    for key, field in value.items():
        if key == "title":
            if not isinstance(field, str) or not field.strip():
                return None, "title must be a non-empty string"
            fields["title"] = field.strip()
        elif key == "completed":
            if not isinstance(field, bool):
                return None, "completed must be true or false"
            fields["completed"] = field
        else:
            return None, "a todo has no field %s" % json.dumps(key)
    return fields, None


def answer(method, path, body):
    """The status and JSON value (None: no content) of one API request."""
    rest = path.rstrip("/")
    if rest == "/api/health":
        if method in ("GET", "HEAD"):
            return 200, {"status": "ok"}
        return 405, {"error": "method not allowed"}
    if rest == "/api/todos":
        if method in ("GET", "HEAD"):
            return 200, list(TODOS)
        if method == "POST":
            fields, error = changes(body)
            if error is None and "title" not in fields:
                error = "a todo needs a title"
            if error is not None:
                return 400, {"error": error}
            NEXT_ID[0] += 1
            todo = {"id": NEXT_ID[0], "title": fields["title"],
                    "completed": fields.get("completed", False)}
            TODOS.append(todo)
            return 201, todo
        if method == "DELETE":
            TODOS.clear()
            return 204, None
        return 405, {"error": "method not allowed"}
    prefix = "/api/todos/"
    if rest.startswith(prefix) and rest[len(prefix):].isdigit():
        todo_id = int(rest[len(prefix):])
        todo = next((t for t in TODOS if t["id"] == todo_id), None)
        if todo is None:
            return 404, {"error": "no todo %d" % todo_id}
        if method in ("GET", "HEAD"):
            return 200, todo
        if method == "DELETE":
            TODOS.remove(todo)
            return 204, None
        if method == "PATCH":
            fields, error = changes(body)
            if error is not None:
                return 400, {"error": error}
            todo.update(fields)
            return 200, todo
        return 405, {"error": "method not allowed"}
    return 404, {"error": "no route %s" % path}


class Handler(SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=os.path.dirname(os.path.abspath(__file__)), **kwargs)

    def api(self):
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path != "/api" and not path.startswith("/api/"):
            return False
        length = min(int(self.headers.get("Content-Length") or 0), MAX_BODY)
        body = self.rfile.read(length) if length else b""
        with LOCK:
            status, value = answer(self.command, path, body)
        data = b"" if value is None else json.dumps(
            value, separators=(",", ":"), sort_keys=True).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        return True

    def do_GET(self):
        if not self.api():
            super().do_GET()

    def do_HEAD(self):
        if not self.api():
            super().do_HEAD()

    def do_POST(self):
        if not self.api():
            self.send_error(405)

    def do_PATCH(self):
        if not self.api():
            self.send_error(405)

    def do_DELETE(self):
        if not self.api():
            self.send_error(405)


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 4173
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print("Serving the demo on http://127.0.0.1:%d/" % port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
