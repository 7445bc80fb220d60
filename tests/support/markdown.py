"""What Markdown becomes when rendered, to prove outside text stays inert.

The Markdown is rendered by markdown-it-py (CommonMark with GFM tables, strikethrough and
linkify, HTML passed through, as GitHub does before sanitising), and the HTML is then inspected:
which tags and comments appear, which links, and whether any text outside code could still be
turned into a mention, an issue reference or a link by GitHub's own filters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from markdown_it import MarkdownIt

_RENDERER = MarkdownIt("gfm-like")
#: What GitHub's filters would still turn into a mention, reference or link in plain text.
_LIVE = re.compile(r"@[A-Za-z0-9]|#\d|[a-z]+://|www\.", re.IGNORECASE)


@dataclass
class Rendered(HTMLParser):
    tags: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    live_text: list[str] = field(default_factory=list)
    _code_depth: int = 0

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "code":
            self._code_depth += 1
        if tag == "a":
            self.links.append(dict(attrs).get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "code":
            self._code_depth -= 1

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def handle_data(self, data: str) -> None:
        if self._code_depth == 0:
            self.live_text += _LIVE.findall(data)


def render(markdown: str) -> Rendered:
    parsed = Rendered()
    parsed.feed(_RENDERER.render(markdown))
    parsed.close()
    return parsed


#: Tags SpecSnap's Markdown may produce (its own <details>, <summary> and <sub> included;
#: <pre> is the fenced mermaid chart, whose text GitHub draws and never renders as HTML).
SAFE_TAGS = frozenset(
    {"p", "h2", "h3", "table", "thead", "tbody", "tr", "th", "td", "code", "strong", "ul", "li"}
    | {"blockquote", "details", "summary", "sub", "a", "br", "hr", "pre"}
)


def assert_inert(
    markdown: str, *, links: tuple[str, ...] = (), comments: int = 0, details: int = 0
) -> None:
    """`markdown` renders only SpecSnap's own markup: its tags, `details` <details> blocks, its
    `comments` HTML comments, links to `links` only, and no live mention, reference or URL."""
    found = render(markdown)
    assert set(found.tags) <= SAFE_TAGS, sorted(set(found.tags) - SAFE_TAGS)
    assert found.tags.count("details") == details
    assert set(found.links) <= set(links), found.links
    assert len(found.comments) == comments, found.comments
    assert found.live_text == [], found.live_text
