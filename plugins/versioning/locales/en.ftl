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
