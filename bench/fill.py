#!/usr/bin/env python3
"""Adds filler documents to a seeded site, for the scaling curve of bench/run.

Standard library only; plain plone.restapi calls (POST <container>), so it runs against any
server the shared seeder runs against.

    fill.py --base http://127.0.0.1:8080 --site /Plone --user admin --password admin --count 100000

The documents go below /fuellmaterial, a folder left out of the navigation (so the navigation
scenario still shows the seeded tree), in subfolders of 1,000 documents each, all published
(so anonymous searches and listings see them). Their text comes
from a fixed seed; one in ten mentions the searched word, so a search's hits grow with the site.
Existing ids are skipped, so an interrupted run resumes.
"""

import argparse
import base64
import http.client
import json
import random
import sys
import threading
import urllib.parse

WORDS = (
    "Gemeinde Bürger Straße Öffnungszeiten Antrag Formular Gebühr Verwaltung Rathaus Bauamt "
    "Wohnung Schule Kindergarten Verkehr Bahnhof Wasser Energie Abfall Friedhof Bibliothek "
    "Veranstaltung Sitzung Haushalt Satzung Bekanntmachung Wahl Ausschuss Förderung Umwelt Klima"
).split()
PER_FOLDER = 1000


class Client:
    """One keep-alive connection per thread."""

    def __init__(self, base, auth):
        url = urllib.parse.urlparse(base)
        self.host, self.port = url.hostname, url.port or 80
        self.auth = auth
        self.conn = None

    def request(self, method, path, body=None):
        for attempt in range(3):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                headers = {"Accept": "application/json", "Authorization": self.auth}
                data = None
                if body is not None:
                    data = json.dumps(body).encode()
                    headers["Content-Type"] = "application/json"
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, OSError):
                self.conn = None
                if attempt == 2:
                    raise
        raise RuntimeError("unreachable")


def text(rng, word, mention):
    words = [rng.choice(WORDS) for _ in range(60)]
    if mention:
        words.insert(rng.randrange(len(words)), word)
    return " ".join(words)


def ensure(client, container, body):
    path = f"{container}/{body['id']}"
    status, _ = client.request("GET", path)
    if status == 200:
        return
    status, answer = client.request("POST", container, body)
    if status != 201:
        sys.exit(f"POST {container} ({body['id']}): {status} {answer[:300]!r}")


def publish(client, path):
    """Publishes `path` unless it is published already."""
    status, answer = client.request("POST", f"{path}/@workflow/publish")
    if status not in (200, 400):
        sys.exit(f"publishing {path}: {status} {answer[:300]!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="http://127.0.0.1:8080")
    ap.add_argument("--site", default="/Plone")
    ap.add_argument("--user", default="admin")
    ap.add_argument("--password", default="admin")
    ap.add_argument("--count", type=int, required=True, help="filler documents to have in all")
    ap.add_argument("--word", default="Nachhaltigkeit", help="the word one in ten documents mentions")
    ap.add_argument("--threads", type=int, default=4)
    args = ap.parse_args()

    auth = "Basic " + base64.b64encode(f"{args.user}:{args.password}".encode()).decode()
    root = f"{args.site}/fuellmaterial"
    setup = Client(args.base, auth)
    ensure(setup, args.site, {"@type": "Folder", "id": "fuellmaterial", "title": "Füllmaterial",
                              "exclude_from_nav": True})
    publish(setup, root)
    folders = (args.count + PER_FOLDER - 1) // PER_FOLDER
    for f in range(folders):
        ensure(setup, root, {"@type": "Folder", "id": f"teil-{f:03d}", "title": f"Teil {f}"})
        publish(setup, f"{root}/teil-{f:03d}")

    failures = []

    def work(worker):
        client = Client(args.base, auth)
        for n in range(worker, args.count, args.threads):
            rng = random.Random(n)
            container = f"{root}/teil-{n // PER_FOLDER:03d}"
            body = {"@type": "Document", "id": f"fuell-{n:06d}", "title": f"Füllseite {n}",
                    "description": text(rng, args.word, False)[:120],
                    "text": {"content-type": "text/html", "encoding": "utf-8",
                             "data": f"<p>{text(rng, args.word, n % 10 == 0)}</p>"}}
            status, answer = client.request("POST", container, body)
            if status == 201:
                status, answer = client.request("POST", f"{container}/{body['id']}/@workflow/publish")
            if status not in (200, 201, 400, 409):
                failures.append(f"{n}: {status} {answer[:200]!r}")
                return

    threads = [threading.Thread(target=work, args=(w,)) for w in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        sys.exit("\n".join(failures[:5]))
    print(f"{args.count} filler documents below {root}")


if __name__ == "__main__":
    main()
