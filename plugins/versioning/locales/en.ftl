# Versioning views, English.
versioning-versions = Versions
versioning-version = Version
versioning-created = Created
versioning-author = Author
versioning-comment = Comment
versioning-actions = Actions
versioning-view = View
versioning-compare = Compare with current version
versioning-restore = Restore
versioning-delete = Delete
versioning-create = Create version
versioning-none = There are no versions yet.
versioning-back = Back to the versions
versioning-no-changes = There are no changes between this version and the current content.
versioning-moved = moved
versioning-changed = changed
versioning-added = added
versioning-removed = removed
versioning-page-metadata = Page properties
versioning-skipped = { $count ->
    [one] One unchanged block
   *[other] { $count } unchanged blocks
}
versioning-old = In the version
versioning-new = Now
versioning-confirm-restore = Overwrite the current content with this version
versioning-confirm-delete = Delete this version for good
# Titles of <mark> in comparisons: what changed about the marked text.
versioning-mark-added = { $what } added
versioning-mark-removed = { $what } removed
versioning-mark-link-added = link to { $target } added
versioning-mark-link-removed = link to { $target } removed
versioning-mark-link-changed = link target changed from { $old } to { $new }
versioning-mark-block = { $old } → { $new }
versioning-mark-properties = properties changed: { $names }
versioning-style-bold = bold
versioning-style-italic = italic
versioning-style-underline = underline
versioning-style-strike = strikethrough
versioning-style-subscript = subscript
versioning-style-superscript = superscript
versioning-style-code = code
versioning-style-highlight = highlight
versioning-block-paragraph = paragraph
versioning-block-heading = heading { $level }
versioning-block-list-item = list item
versioning-block-quotation = quotation
versioning-block-preformatted = preformatted text
versioning-block-table-cell = table cell
