"""Schemathesis hooks: the media types the server takes that schemathesis cannot send itself."""

import schemathesis


@schemathesis.serializer("application/offset+octet-stream")
def offset_octets(ctx, value):
    """A resumable upload's chunk (PATCH @tus-upload/<id>): raw bytes."""
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8")
