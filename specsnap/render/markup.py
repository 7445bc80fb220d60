"""Outside text made inert: what the agent under test or a commenter controls, safe to show.

Paths, test ids, module names, breach details, notes, echoed commands, agent options, titles:
everything that reaches a comment, a check run, a bot reply or the terminal from outside
SpecSnap's own wording passes through one of these. On GitHub it then cannot mention anyone,
link anywhere, or inject HTML.

- `code(s)` — names, as an inline code span. GitHub renders nothing inside a code span: no
  Markdown, no HTML, no mention, no link, no issue reference. The fence is longer than any
  backtick run inside, whitespace is flattened, and `|` is escaped so a table cell holds.
- `text(s)` — prose, in Markdown. `& < >` become entities (no tag, no `<details>`, no HTML
  comment), Markdown punctuation is backslash-escaped (no link, image, emphasis or cell break),
  and mentions, issue references and bare URLs are broken by a zero-width space after `@`, `#`,
  `:` and `www`, which GitHub's autolinkers do not cross.
- `inert(s)` — the same for GitHub's plain-text fields (check run title, annotations).
- `plain(s)` — for the terminal: control characters (escape sequences) are shown, not obeyed.

An HTML comment opener `<!--` is broken in every form, code spans included: SpecSnap finds its
own comments and score snapshots by HTML-comment markers, so outside text must never carry one.
"""

from __future__ import annotations

import re

ZWSP = "\u200b"

_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]|~])")
_LINKISH = re.compile(r"(@|#(?=\d)|:(?=//)|(?i:www)(?=\.))")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_COMMENT_OPEN = "<!--"


def code(value: object) -> str:
    """`value` as an inline code span that no content can break out of."""
    flat = _flat(str(value)).replace(_COMMENT_OPEN, "<!" + ZWSP + "--").replace("|", "\\|")
    if not flat:
        return '""'
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or longest else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def text(value: object) -> str:
    """`value` as Markdown prose that renders as exactly its characters, inertly."""
    flat = _LINKISH.sub(lambda m: m.group(0) + ZWSP, _flat(str(value)))
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", flat)


def inert(value: object) -> str:
    """`value` for a GitHub plain-text field: one line, no mention, link or HTML comment."""
    flat = _LINKISH.sub(lambda m: m.group(0) + ZWSP, _flat(str(value)))
    return flat.replace(_COMMENT_OPEN, "<!" + ZWSP + "--")


def plain(value: object) -> str:
    """`value` for a terminal: one line, control characters shown as escapes."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", " ".join(str(value).split()))


def _flat(value: str) -> str:
    """One line, control characters dropped (they mean nothing in a comment)."""
    return " ".join(_CONTROL.sub("", value).split())
