"""Bearer tokens for the HTTP API: HS256 JWTs with a subject, a role and a patient scope.

Claims: ``sub`` (who), ``role`` (``admin``, ``clinician``, ``researcher`` or ``service``), ``patients``
(ids the caller may see, or ``["*"]``), optional ``projects`` and ``org`` (memory search scopes),
``iat``, ``exp``, ``iss`` = ``medpath``. The secret is ``MEDPATH_JWT_SECRET``, or a random one kept in
``<home>/jwt_secret`` (mode 0600) for local use; ``medpath token issue`` signs with the same one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from core.errors import ConfigError, MedpathError
from core.keys import local_secret
from core.settings import jwt_secret, token_max_ttl_s

__all__ = ["Principal", "Role", "TokenError", "issue_token", "load_secret", "verify_token"]

ISSUER = "medpath"
ALGORITHM = "HS256"


class Role(StrEnum):
    """What a caller is."""

    ADMIN = "admin"
    CLINICIAN = "clinician"
    RESEARCHER = "researcher"
    SERVICE = "service"


class TokenError(MedpathError):
    """A token is missing, malformed, expired or signed with another secret."""


@dataclass(frozen=True)
class Principal:
    """The verified caller."""

    sub: str
    """Subject (user or service account)."""
    role: Role
    """Role."""
    patients: tuple[str, ...] = ()
    """Patient ids in scope; ``("*",)`` means all."""
    projects: tuple[str, ...] = ()
    """Project scopes the caller may search."""
    org: str | None = None
    """Organisation scope the caller may search."""
    claims: dict[str, Any] = field(default_factory=dict, compare=False)
    """Every claim, as signed."""

    @property
    def is_admin(self) -> bool:
        """True for the admin role."""
        return self.role is Role.ADMIN

    @property
    def counted(self) -> list[str] | None:
        """The patients a question about many patients may count ("how many patients have gout?"): the caller's, or
        ``None`` for an admin (every patient)."""
        return None if self.is_admin else list(self.patients)

    def may_see(self, patient_id: str) -> bool:
        """Whether the patient is in scope (admins see everyone)."""
        return self.is_admin or "*" in self.patients or patient_id in self.patients

    @property
    def auth_source(self) -> str:
        """How the caller authenticated, for the audit record."""
        return f"jwt:{self.role.value}"


def load_secret(home: Path) -> str:
    """``MEDPATH_JWT_SECRET``, else the local secret file (created once, 0600)."""
    return local_secret(jwt_secret(), "MEDPATH_JWT_SECRET", home / "jwt_secret", " (HS256 wants a 256-bit key)")


def issue_token(secret: str, sub: str, role: str, patients: list[str] | None = None, *, ttl_s: int = 3600,
                projects: list[str] | None = None, org: str | None = None, now: float | None = None) -> str:
    """Sign a token."""
    import jwt

    if not sub.strip():
        raise ConfigError("a token needs a subject")
    if ":" in sub:
        raise ConfigError(f"a subject may not contain ':' (it would name a scope such as org:…): {sub!r}")
    if not 0 < ttl_s <= token_max_ttl_s():
        raise ConfigError(f"a token lives between 1 s and {token_max_ttl_s()} s (MEDPATH_TOKEN_MAX_TTL_S), not {ttl_s} s")
    try:
        role = Role(role).value
    except ValueError as exc:
        raise ConfigError(f"unknown role {role!r}; use one of {', '.join(r.value for r in Role)}") from exc
    t = int(now if now is not None else time.time())
    claims: dict[str, Any] = {"sub": sub, "role": role, "patients": list(patients or []), "iss": ISSUER, "iat": t,
                              "exp": t + int(ttl_s)}
    if projects:
        claims["projects"] = list(projects)
    if org:
        claims["org"] = org
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def verify_token(secret: str, token: str) -> Principal:
    """Check signature, expiry and issuer; :class:`TokenError` says what is wrong."""
    import jwt

    try:
        claims = jwt.decode(token, secret, algorithms=[ALGORITHM], issuer=ISSUER,
                            options={"require": ["sub", "exp", "iss", "iat"]})
    except jwt.ExpiredSignatureError as exc:
        raise TokenError("the token has expired") from exc
    except jwt.PyJWTError as exc:
        raise TokenError(f"invalid token: {exc}") from exc
    longest = token_max_ttl_s()
    if not isinstance(claims.get("sub"), str) or not claims["sub"].strip():
        raise TokenError("invalid token: empty subject")
    if ":" in claims["sub"]:
        raise TokenError("invalid token: a subject may not contain ':' (scopes such as org:… are not users)")
    if claims["exp"] - claims["iat"] > longest or claims["exp"] - time.time() > longest:
        raise TokenError(f"invalid token: it lives longer than {longest} s")
    try:
        role = Role(claims.get("role", ""))
    except ValueError as exc:
        raise TokenError(f"invalid token: unknown role {claims.get('role')!r}") from exc
    patients = claims.get("patients") or []
    if not isinstance(patients, list) or not all(isinstance(p, str) for p in patients):
        raise TokenError("invalid token: 'patients' must be a list of ids")
    return Principal(str(claims["sub"]), role, tuple(patients), tuple(claims.get("projects") or ()), claims.get("org"), claims)
