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
# Titel von <mark> in Vergleichen: was sich an dem markierten Text geändert hat.
versioning-mark-added = { $what } hinzugefügt
versioning-mark-removed = { $what } entfernt
versioning-mark-link-added = Link auf { $target } hinzugefügt
versioning-mark-link-removed = Link auf { $target } entfernt
versioning-mark-link-changed = Linkziel geändert von { $old } auf { $new }
versioning-mark-block = { $old } → { $new }
versioning-mark-properties = Eigenschaften geändert: { $names }
versioning-style-bold = Fettdruck
versioning-style-italic = Kursivschrift
versioning-style-underline = Unterstreichung
versioning-style-strike = Durchstreichung
versioning-style-subscript = Tiefstellung
versioning-style-superscript = Hochstellung
versioning-style-code = Code-Schrift
versioning-style-highlight = Hervorhebung
versioning-block-paragraph = Absatz
versioning-block-heading = Überschrift { $level }
versioning-block-list-item = Listenpunkt
versioning-block-quotation = Zitat
versioning-block-preformatted = vorformatierter Text
versioning-block-table-cell = Tabellenzelle
