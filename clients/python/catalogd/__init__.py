"""A Python client for catalogd, the daemon that serves products, photos,
places and quotes over JSON-RPC 2.0 on its stdin and stdout.

    from catalogd import Client

    with Client() as client:  # starts `catalogd`, does the handshake
        print(client.quotes_random(tags=["wisdom"]).content)

`Client` is synchronous (a reader thread), `AsyncClient` is for asyncio; both
have one typed method per method of the daemon (`_methods.py`, generated from
`openrpc.json`) and dataclasses for its results (`_types.py`). Every exception
the client raises is a `CatalogdError`; error replies of the daemon are
`RpcError` subclasses, one per well-known code. `open_feed` gives a daemon
feed as a list that follows its notifications (`Feed`, `AsyncFeed`).

The pytest plugin (`catalogd.pytest_plugin`, fixture `catalogd_client`) is
loaded by pytest through its entry point; importing `catalogd` does not
import pytest.
"""

from ._async_client import AsyncClient, AsyncNotificationStream
from ._base import Notification, TextSink
from ._client import Client, NotificationStream
from ._core import BUNDLED_BINARY, DEFAULT_TIMEOUT, ENV_BINARY, find_binary
from ._errors import (
    ERROR_CLASSES,
    BinaryNotExecutable,
    BinaryNotFound,
    CatalogdError,
    Conflict,
    DaemonExited,
    FeedOutOfSync,
    InternalError,
    InvalidArgument,
    InvalidParams,
    InvalidRequest,
    InvalidState,
    MethodNotFound,
    NotFound,
    NotificationTimeout,
    ParseError,
    ProtocolError,
    RequestCancelled,
    RequestTimeout,
    RpcError,
    ServerNotInitialized,
    StorageFull,
    UpstreamError,
    UpstreamUnavailable,
    UsageError,
)
from ._exit_status import ExitStatus
from ._feed import AsyncFeed, Feed
from ._feed_mirror import FeedEvent, FeedMirror, apply_changes
from ._framing import Framing
from ._json_types import *  # noqa: F401,F403 - the generated TypedDicts of the notifications' JSON
from ._json_types import __all__ as _json_types_all
from ._methods import METHODS, NOTIFICATION_HANDLERS, PARAMS
from ._types import *  # noqa: F401,F403 - the generated dataclasses and notification names
from ._types import __all__ as _types_all
from ._version import __version__
from ._wire import UNSET, Unset

__all__ = [
    "AsyncClient",
    "AsyncFeed",
    "AsyncNotificationStream",
    "BUNDLED_BINARY",
    "BinaryNotExecutable",
    "BinaryNotFound",
    "CatalogdError",
    "Client",
    "Conflict",
    "DEFAULT_TIMEOUT",
    "DaemonExited",
    "ENV_BINARY",
    "ERROR_CLASSES",
    "ExitStatus",
    "Feed",
    "FeedEvent",
    "FeedMirror",
    "FeedOutOfSync",
    "Framing",
    "InternalError",
    "InvalidArgument",
    "InvalidParams",
    "InvalidRequest",
    "InvalidState",
    "METHODS",
    "MethodNotFound",
    "NOTIFICATION_HANDLERS",
    "NotFound",
    "Notification",
    "NotificationTimeout",
    "NotificationStream",
    "PARAMS",
    "ParseError",
    "ProtocolError",
    "RequestCancelled",
    "RequestTimeout",
    "RpcError",
    "ServerNotInitialized",
    "StorageFull",
    "TextSink",
    "UNSET",
    "Unset",
    "UpstreamError",
    "UpstreamUnavailable",
    "UsageError",
    "__version__",
    "apply_changes",
    "find_binary",
    *_types_all,
    *_json_types_all,
]
