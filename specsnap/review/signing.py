"""Signatures on the reviews the bot records: the GitHub App's own key signs each entry's digest
(a JWS, RS256), so anyone holding the App's public key can tell that the bot recorded that entry,
as it reads, from that comment. The chain of digests (specsnap.review.section) binds the entries
to one scorecard and to each other; the signature binds them to the bot. A rating recorded
locally (`specsnap review --rate`) carries none: its file's sha256 is all it has."""

from __future__ import annotations

from collections.abc import Callable

import jwt
from cryptography.hazmat.primitives import serialization

from specsnap.errors import UsageError

ALGORITHM = "RS256"
#: Signs an entry's digest: the signature that goes beside it.
Signer = Callable[[str], str]
#: Checks a signature against an entry's digest: None when it holds, else why not.
Verifier = Callable[[str, str], "str | None"]


def app_signer(private_key_pem: str, app_id: int) -> Signer:
    """The GitHub App `app_id`'s signer, with its private key (the one it authenticates with)."""

    def sign(digest: str) -> str:
        return jwt.encode({"iss": str(app_id), "sub": digest}, private_key_pem, ALGORITHM)

    return sign


def app_verifier(public_key_pem: str) -> Verifier:
    """Checks signatures with the App's public key (its private key's, in PEM); a key that is
    not one is bad input, said once, not a failed signature per entry."""
    try:
        serialization.load_pem_public_key(public_key_pem.encode())
    except (ValueError, TypeError) as exc:
        raise UsageError(f"the reviews key is not a PEM public key: {exc}") from None

    def verify(token: str, digest: str) -> str | None:
        try:
            claims = jwt.decode(
                token, public_key_pem, algorithms=[ALGORITHM], options={"require": ["sub"]}
            )
        except (jwt.PyJWTError, ValueError) as exc:
            return f"its signature does not verify with the key given ({exc})"
        if claims["sub"] != digest:
            return "its signature is over another entry"
        return None

    return verify
