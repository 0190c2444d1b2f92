#!/usr/bin/env python3
"""Writes a plone.exportimport export of N objects, for timing `wcs import-plone` at scale.

    bench/plone_export.py DIR [N]        (N defaults to 50,000)

The site has N objects: folders of 500 objects each, holding pages with Volto blocks (a title
and three text blocks linking to a sibling), news items and a small image every 50th object.
Each object has a workflow history, some their own local roles; there are 200 users with
Zope password hashes, 20 groups, a relation per 100 objects and a redirect per 200. Only the
standard library is used, and the same N always gives the same export.
"""

import base64
import hashlib
import json
import os
import sys

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PER_FOLDER = 500


def uid(n):
    return hashlib.md5(f"object-{n}".encode()).hexdigest()


def write(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        json.dump(value, out, indent=2, sort_keys=True)


def history(created, state):
    entries = [{"action": None, "actor": "admin", "comments": "", "review_state": "private", "time": created}]
    if state == "published":
        entries.append({"action": "publish", "actor": "admin", "comments": "", "review_state": "published", "time": created})
    return {"simple_publication_workflow": entries}


def page_blocks(n, sibling):
    blocks = {"t": {"@type": "title"}}
    for k in range(3):
        text = f"Absatz {k} der Seite {n}: Öffnungszeiten, Gebühren und Formulare der Gemeinde."
        link = {"type": "link", "data": {"url": sibling}, "children": [{"text": "mehr"}]}
        blocks[f"b{k}"] = {
            "@type": "slate",
            "plaintext": text,
            "value": [{"type": "p", "children": [{"text": text + " "}, link, {"text": ""}]}],
        }
    return blocks, {"items": ["t", "b0", "b1", "b2"]}


def main():
    target = sys.argv[1]
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 50_000
    content = os.path.join(target, "content")
    data_files = ["plone_site_root/data.json"]
    blob_files = []
    ordering = {}
    local_roles = {}
    write(os.path.join(content, "plone_site_root", "data.json"),
          {"@id": "/Plone", "@type": "Plone Site", "UID": "plone_site_root", "id": "Plone", "title": "Grossgemeinde"})
    folders = (total + PER_FOLDER) // (PER_FOLDER + 1)
    n = 0
    relations = []
    redirects = {}
    for f in range(folders):
        if n >= total:
            break
        folder_uid, folder_path = uid(n), f"/bereich-{f}"
        created = f"2020-01-{1 + f % 28:02d}T08:00:00+00:00"
        write(os.path.join(content, folder_uid, "data.json"), {
            "@id": folder_path, "@type": "Folder", "UID": folder_uid, "id": f"bereich-{f}",
            "title": f"Bereich {f}", "description": "", "created": created, "modified": created,
            "review_state": "published", "workflow_history": history(created, "published"),
            "creators": ["admin"], "language": "##DEFAULT##",
        })
        data_files.append(f"{folder_uid}/data.json")
        ordering[folder_uid] = f
        local_roles[folder_uid] = {"local_roles": {f"user-{f % 200}": ["Editor"], "admin": ["Owner"]}}
        n += 1
        for i in range(PER_FOLDER):
            if n >= total:
                break
            item_uid, item_id = uid(n), f"seite-{i}"
            path = f"{folder_path}/{item_id}"
            created = f"2021-{1 + i % 12:02d}-{1 + i % 28:02d}T09:30:00+00:00"
            state = "published" if i % 3 else "private"
            item = {
                "@id": path, "UID": item_uid, "id": item_id, "title": f"Seite {i} im Bereich {f}",
                "description": f"Beschreibung der Seite {i}", "created": created, "modified": created,
                "review_state": state, "workflow_history": history(created, state), "creators": ["admin"],
                "language": "##DEFAULT##", "subjects": ["Verwaltung", f"Thema {i % 20}"],
            }
            if i % 50 == 49:
                # Images have no workflow in Plone.
                item["@type"] = "Image"
                item["review_state"], item["workflow_history"] = None, {}
                blob = f"{item_uid}/image/bild-{i}.png"
                item["image"] = {"blob_path": blob, "content-type": "image/png", "filename": f"bild-{i}.png",
                                 "size": len(PNG)}
                os.makedirs(os.path.join(content, item_uid, "image"), exist_ok=True)
                with open(os.path.join(content, blob), "wb") as out:
                    out.write(PNG)
                blob_files.append(blob)
            else:
                item["@type"] = "News Item" if i % 10 == 0 else "Document"
                sibling = f"{folder_path}/seite-{(i + 1) % PER_FOLDER}"
                item["blocks"], item["blocks_layout"] = page_blocks(n, sibling)
            write(os.path.join(content, item_uid, "data.json"), item)
            data_files.append(f"{item_uid}/data.json")
            ordering[item_uid] = i
            if n % 100 == 0 and n > 1:
                relations.append({"from_attribute": "relatedItems", "from_uuid": item_uid, "to_uuid": uid(n - 1)})
            if n % 200 == 0:
                redirects[f"/Plone{folder_path}/alt-{i}"] = f"/Plone{path}"
            n += 1
    write(os.path.join(content, "__metadata__.json"), {
        "__version__": "1.0.0", "_data_files_": data_files, "_blob_files_": blob_files, "default_page": {},
        "local_permissions": {}, "local_roles": local_roles, "ordering": ordering,
    })
    salt = b"salt1234"
    members = []
    for u in range(200):
        digest = hashlib.sha1(f"passwort-{u}".encode() + salt).digest()
        members.append({"username": f"user-{u}", "fullname": f"Benutzerin {u}", "email": f"user-{u}@example.org",
                        "password": "{SSHA}" + base64.b64encode(digest + salt).decode(), "roles": ["Member"],
                        "groups": [f"gruppe-{u % 20}"], "description": "", "location": "", "home_page": ""})
    groups = [{"groupid": f"gruppe-{g}", "title": f"Gruppe {g}", "description": "", "email": "", "roles": [],
               "groups": [], "principals": []} for g in range(20)]
    write(os.path.join(target, "principals.json"), {"groups": groups, "members": members})
    write(os.path.join(target, "relations.json"), relations)
    write(os.path.join(target, "redirects.json"), redirects)
    print(f"{n} objects, {len(blob_files)} files in {target}")


if __name__ == "__main__":
    main()
