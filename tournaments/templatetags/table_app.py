"""The table pages' app shell: the outbox's sentences for static/js/outbox.js."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import table_pages

register = template.Library()


@register.simple_tag
def outbox_text() -> dict[str, Any]:
    return table_pages.outbox_text()
