# Versioning views, German.
versioning-versions = Versionen
versioning-version = Version
versioning-created = Erstellt
versioning-author = Autor
versioning-comment = Kommentar
versioning-actions = Aktionen
versioning-view = Anzeigen
versioning-compare = Mit aktueller Version vergleichen
versioning-restore = Wiederherstellen
versioning-delete = Löschen
versioning-create = Version erstellen
versioning-none = Es gibt noch keine Versionen.
versioning-back = Zurück zu den Versionen
versioning-no-changes = Zwischen dieser Version und dem aktuellen Inhalt gibt es keine Änderungen.
versioning-moved = verschoben
versioning-changed = geändert
versioning-added = hinzugefügt
versioning-removed = entfernt
versioning-page-metadata = Seiteneigenschaften
versioning-skipped = { $count ->
    [one] Ein unveränderter Block
   *[other] { $count } unveränderte Blöcke
}
versioning-old = In der Version
versioning-new = Jetzt
versioning-confirm-restore = Den aktuellen Inhalt mit dieser Version überschreiben
versioning-confirm-delete = Diese Version endgültig löschen
