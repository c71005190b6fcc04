"""Every URL pattern of the project, walked from the root resolver, with its path filled."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern


@dataclass(frozen=True)
class Route:
    key: str  # "namespace:name", or the pattern itself for an unnamed route
    pattern: str  # the whole pattern, prefixes included
    params: tuple[str, ...]
    callback: object


def _params(pattern) -> list[str]:
    if isinstance(pattern, RoutePattern):
        return list(pattern.converters)
    if isinstance(pattern, RegexPattern):
        return list(pattern.regex.groupindex)
    return []


def _text(pattern) -> str:
    text = str(pattern)
    if isinstance(pattern, RegexPattern):
        text = text.removeprefix("^").removesuffix("$")
    return text


def walk(
    patterns=None, prefix: str = "", namespace: str | None = None, params: tuple[str, ...] = ()
):
    if patterns is None:
        patterns = get_resolver().url_patterns
    for entry in patterns:
        here = prefix + _text(entry.pattern)
        names = params + tuple(_params(entry.pattern))
        if isinstance(entry, URLResolver):
            ns = namespace
            if entry.namespace:
                ns = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from walk(entry.url_patterns, here, ns, names)
        elif isinstance(entry, URLPattern):
            if entry.name:
                key = f"{namespace}:{entry.name}" if namespace else entry.name
            else:
                key = f"{namespace}:<{here}>" if namespace else f"<{here}>"
            yield Route(key=key, pattern=here, params=names, callback=entry.callback)


_PATH_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")
_REGEX_GROUP = re.compile(r"\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)")


def fill(pattern: str, values: dict[str, object]) -> str:
    """The path of ``pattern`` with every parameter replaced (KeyError if one is unknown)."""
    text = _PATH_PARAM.sub(lambda m: str(values[m.group(1)]), pattern)
    text = _REGEX_GROUP.sub(lambda m: str(values[m.group(1)]), text)
    return "/" + text.replace("\\", "")
