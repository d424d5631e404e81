#!/usr/bin/python3
"""A stand-in for intervals.icu's API, for the calendar tests (IntervalsTests).

    intervals_server.py DIR

It serves on 127.0.0.1 at a port of its own choosing and writes the port to DIR/port
once it listens (the test waits for that file). What it answers is read from DIR at each
request, so a test sets it before running workout:

- DIR/key: the athlete's API key; HTTP Basic authentication with the user API_KEY and
  this password, else 401.
- DIR/events.json: the events GET /api/v1/athlete/0/events lists (filtered by category).
- DIR/calendar.json: the events POST /api/v1/athlete/0/events/bulk put there (upsert=true:
  by external_id, changed rather than added again).
- DIR/mode: `ok` (no file: the same), or a status to answer every request with (`404`,
  `422`, `429`, `500`, `503`), or `slow` (answers after 5 seconds); methods after it
  limit it to those (`503 POST`: only uploads fail).

Each request is appended to DIR/requests.jsonl: method, path, query, the user name, and
for an upload the file's name, size and sha256 (the paired event is in the query). An
upload of a file already taken answers 409, as the service does; the last file sent is
kept as DIR/last-upload.fit.
"""
import base64
import hashlib
import json
import os
import sys
import time
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

DIR = sys.argv[1]


def read(name, default=""):
    try:
        with open(os.path.join(DIR, name), encoding="utf-8") as f:
            return f.read().strip()
    except FileNotFoundError:
        return default


def log(entry):
    with open(os.path.join(DIR, "requests.jsonl"), "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self, method):
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        entry = {"method": method, "path": url.path, "query": parse_qs(url.query)}
        user, password = None, None
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
        entry["user"] = user
        if method == "POST" and url.path.endswith("/activities"):
            entry.update(self.upload(body))
        elif body:
            try:
                entry["json"] = json.loads(body)
            except ValueError:
                entry["body"] = body.decode(errors="replace")
        log(entry)
        mode, *methods = read("mode", "ok").split() or ["ok"]
        if methods and method not in methods:
            mode = "ok"
        if mode == "slow":
            time.sleep(5)
        elif mode != "ok":
            return self.answer(int(mode), {"status": int(mode), "error": f"stand-in answers {mode}"})
        if user != "API_KEY" or password != read("key"):
            return self.answer(401, {"status": 401, "error": "Unauthorized"})
        if method == "GET" and url.path == "/api/v1/athlete/0":
            return self.answer(200, {"id": "i1", "name": "Stand-in Athlete"})
        if method == "GET" and url.path == "/api/v1/athlete/0/events":
            events = json.loads(read("events.json", "[]"))
            wanted = entry["query"].get("category", [None])[0]
            return self.answer(200, [e for e in events if wanted is None or e.get("category") == wanted])
        if method == "POST" and url.path == "/api/v1/athlete/0/activities":
            if entry.get("duplicate"):
                return self.answer(409, {"status": 409, "error": "Duplicate activity"})
            # Kept only once it is taken: a file refused (mode) is not on the calendar.
            open(os.path.join(DIR, "uploaded-" + entry["sha256"]), "wb").close()
            return self.answer(201, {"icu_athlete_id": "i1", "id": "i" + entry["sha256"][:8]})
        if method == "POST" and url.path == "/api/v1/athlete/0/events/bulk":
            return self.bulk(entry)
        if method == "PUT" and url.path.startswith("/api/v1/activity/"):
            return self.answer(200, {"id": url.path.rsplit("/", 1)[1]})
        return self.answer(404, {"status": 404, "error": "Not found"})

    def bulk(self, entry):
        """Adds the events to DIR/calendar.json; with upsert=true, one whose external_id is
        there already changes it instead."""
        upsert = entry["query"].get("upsert") == ["true"]
        calendar = json.loads(read("calendar.json", "[]"))
        for event in entry.get("json") or []:
            if len(event.get("name", "")) > 80:
                return self.answer(422, {"status": 422, "error": "name: size must be between 0 and 80"})
            same = [e for e in calendar if upsert and e.get("external_id") == event.get("external_id")]
            if same:
                same[0].update(event)
            else:
                calendar.append(dict(event, id=1000 + len(calendar)))
        with open(os.path.join(DIR, "calendar.json"), "w", encoding="utf-8") as f:
            json.dump(calendar, f)
        return self.answer(200, calendar)

    def upload(self, body):
        head = f"Content-Type: {self.headers.get('Content-Type', '')}\r\n\r\n".encode()
        message = BytesParser(policy=HTTP).parsebytes(head + body)
        found = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            data = part.get_payload(decode=True) or b""
            if part.get_filename():
                with open(os.path.join(DIR, "last-upload.fit"), "wb") as f:
                    f.write(data)
                digest = hashlib.sha256(data).hexdigest()
                seen = os.path.join(DIR, "uploaded-" + digest)
                found.update(file=part.get_filename(), size=len(data), sha256=digest,
                             duplicate=os.path.exists(seen))
            else:
                found[name] = data.decode(errors="replace")
        return found

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = os.path.join(DIR, "port")
    with open(port + ".new", "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.rename(port + ".new", port)
    server.serve_forever()


if __name__ == "__main__":
    main()
