"""A GitHub App's key pair for the tests that play the bot against the loopback GitHub."""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


def app_key_pair() -> tuple[str, str]:
    """A fresh GitHub App key: the private key (PEM, PKCS#8) the bot signs its JWTs with, and
    the public key the loopback server checks them against."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return private.decode(), public.decode()
