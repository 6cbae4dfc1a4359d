"""The medpath error tree, rooted at ``MedpathError``.

::

    MedpathError
     ├── ConfigError              bad settings, bad YAML, unknown backend
     ├── InputError               a malformed question or argument
     ├── DataError                a broken or missing data file
     ├── StoreError               a store could not be read or written
     │    ├── NotFoundError       an id or thread that does not exist
     │    ├── IndexMissingError   the indexes are not built yet
     │    └── IndexMismatchError  the index was built with another model
     ├── RetrievalError           the retrieval pipeline failed
     │    └── DenseUnavailableError   the dense index is down
     └── LLMError                 the configured LLM failed or answered badly
          └── LLMUnavailableError     it could not be reached in time

Library exceptions are translated at the boundary with ``raise ... from exc``.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "DataError",
    "DenseUnavailableError",
    "IndexMismatchError",
    "IndexMissingError",
    "InputError",
    "LLMError",
    "LLMUnavailableError",
    "MedpathError",
    "NotFoundError",
    "RetrievalError",
    "StoreError",
]


class MedpathError(Exception):
    """Root of every error medpath raises on purpose."""


class ConfigError(MedpathError):
    """Settings or a configuration file are invalid."""


class InputError(MedpathError):
    """The caller gave a malformed question or argument."""


class DataError(MedpathError):
    """A data file is missing, unreadable or malformed."""


class StoreError(MedpathError):
    """A store could not be read or written."""


class NotFoundError(StoreError):
    """The requested id, thread or row does not exist."""


class IndexMissingError(StoreError):
    """The indexes have not been built; run ``medpath index build``."""


class IndexMismatchError(StoreError):
    """The index on disk was built with another embedding model or dimension."""


class RetrievalError(MedpathError):
    """The retrieval pipeline failed."""


class DenseUnavailableError(RetrievalError):
    """The dense (FAISS) index is down or failed during a search."""


class LLMError(MedpathError):
    """The configured LLM failed or returned something unusable."""


class LLMUnavailableError(LLMError):
    """The configured LLM could not be reached within its timeout."""
