"""A Python client for catalogd, the daemon that serves products, photos,
places and quotes over JSON-RPC 2.0 on its stdin and stdout.

    from catalogd import Client

    with Client() as client:  # starts `catalogd`, does the handshake
        print(client.quotes_random(tags=["wisdom"]).content)

`Client` is synchronous (a reader thread), `AsyncClient` is for asyncio; both
have one typed method per method of the daemon (`_methods.py`, generated from
`openrpc.json`) and dataclasses for its results (`_types.py`). Errors of the
daemon are `CatalogdError` subclasses, one per well-known code.
`open_feed` gives a daemon feed as a list that follows its notifications
(`Feed`, `AsyncFeed`).
"""

from ._async_client import AsyncClient, AsyncNotificationStream
from ._base import Notification
from ._client import Client, NotificationStream
from ._core import ENV_BINARY, find_binary
from ._errors import (
    ERROR_CLASSES,
    CatalogdError,
    Conflict,
    DaemonExited,
    FeedOutOfSync,
    InternalError,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    NotFound,
    ParseError,
    ProtocolError,
    RequestCancelled,
    RequestTimeout,
    ServerNotInitialized,
    StorageFull,
    UpstreamError,
    UpstreamUnavailable,
)
from ._feed import AsyncFeed, Feed
from ._feed_mirror import FeedEvent, FeedMirror, apply_changes
from ._methods import METHODS, NOTIFICATION_HANDLERS, PARAMS
from ._types import *  # noqa: F401,F403 - the generated dataclasses and notification names
from ._types import __all__ as _types_all
from ._version import __version__
from ._wire import UNSET, Unset

__all__ = [
    "AsyncClient",
    "AsyncFeed",
    "AsyncNotificationStream",
    "CatalogdError",
    "Client",
    "Conflict",
    "DaemonExited",
    "ENV_BINARY",
    "ERROR_CLASSES",
    "Feed",
    "FeedEvent",
    "FeedMirror",
    "FeedOutOfSync",
    "InternalError",
    "InvalidParams",
    "InvalidRequest",
    "METHODS",
    "MethodNotFound",
    "NOTIFICATION_HANDLERS",
    "NotFound",
    "Notification",
    "NotificationStream",
    "PARAMS",
    "ParseError",
    "ProtocolError",
    "RequestCancelled",
    "RequestTimeout",
    "ServerNotInitialized",
    "StorageFull",
    "UNSET",
    "Unset",
    "UpstreamError",
    "UpstreamUnavailable",
    "__version__",
    "apply_changes",
    "find_binary",
    *_types_all,
]
