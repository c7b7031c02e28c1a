"""Conversions between wire JSON and the dataclasses of `_types.py`.

The generated code calls these helpers, so each dataclass's `from_json` stays
one readable expression per field. Decoding tolerates unknown members (a newer
daemon may add fields) but not a missing required one: that is the daemon
breaking its contract, reported as `ProtocolError`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Mapping, Optional, TypeVar

from ._errors import ProtocolError

T = TypeVar("T")
Decoder = Callable[[Any], Any]


class Unset:
    """The type of `UNSET`: "leave this parameter out of the request"."""

    _instance: Optional["Unset"] = None

    def __new__(cls) -> "Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "UNSET"


UNSET = Unset()
"""Default of the parameters that accept `null`: there `None` sends `null`
(for example "clear this field") and `UNSET` leaves the parameter out."""


def to_json(value: Any) -> Any:
    """A value ready for `json.dumps`: dataclasses of this package become
    objects with their wire (camelCase) names, recursively."""
    to = getattr(value, "to_json", None)
    if to is not None and dataclasses.is_dataclass(value):
        return to()
    if isinstance(value, Mapping):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def expect_object(obj: Any, owner: str) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise ProtocolError(f"{owner}: expected a JSON object, got {type(obj).__name__}: {obj!r:.200}")
    return obj


def required(obj: Mapping[str, Any], key: str, owner: str, decode: Optional[Decoder] = None) -> Any:
    """The member `key`, which the schema requires."""
    try:
        value = obj[key]
    except KeyError:
        raise ProtocolError(f"{owner}: the daemon's reply lacks the required member {key!r}") from None
    return value if decode is None else decode(value)


def optional(obj: Mapping[str, Any], key: str, decode: Optional[Decoder] = None) -> Any:
    """The member `key`, or None when absent."""
    value = obj.get(key)
    if value is None or decode is None:
        return value
    return decode(value)


def tagged(obj: Any, tag: str, forms: Mapping[Any, Callable[[Any], T]], owner: str) -> T:
    """One form of a tagged union (a oneOf of objects): the decoder of
    `forms` that the member `tag` names (`{"op": "insert", …}`)."""
    value = required(expect_object(obj, owner), tag, owner)
    try:
        decode = forms[value]
    except (KeyError, TypeError):
        known = ", ".join(repr(v) for v in forms)
        raise ProtocolError(f"{owner}: {tag} is {value!r:.100}, none of {known}") from None
    return decode(obj)


def list_of(decode: Decoder) -> Callable[[Any], List[Any]]:
    def decode_list(value: Any) -> List[Any]:
        if not isinstance(value, list):
            raise ProtocolError(f"expected a JSON array, got {type(value).__name__}: {value!r:.200}")
        return [decode(v) for v in value]

    return decode_list


def dict_of(decode: Decoder) -> Callable[[Any], Dict[str, Any]]:
    def decode_dict(value: Any) -> Dict[str, Any]:
        return {k: decode(v) for k, v in expect_object(value, "map").items()}

    return decode_dict


def nullable(decode: Decoder) -> Decoder:
    def decode_nullable(value: Any) -> Any:
        return None if value is None else decode(value)

    return decode_nullable
