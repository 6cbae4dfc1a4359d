"""Scoring with a saved LightGBM model through LightGBM's C library, without importing the ``lightgbm`` package.

The Python package pulls in SciPy and pandas shims (about 0.2 s), which a cold ``medpath ask`` pays for one
prediction. Answering needs two calls of the C API, ``LGBM_BoosterLoadModelFromString`` and
``LGBM_BoosterPredictForMat``; this module makes them with ``ctypes`` on the library that the ``lightgbm`` wheel
ships, so the scores are those of ``lightgbm.Booster.predict`` (a test compares them bit for bit). Training still
uses the package (``tools.ranker_fit``).
"""

from __future__ import annotations

import ctypes
import importlib.util
from pathlib import Path

import numpy as np

__all__ = ["SCORE_THREADS", "Booster", "library_path"]

_DTYPE_FLOAT64 = 1
_PREDICT_NORMAL = 0
_ROW_MAJOR = 1
SCORE_THREADS = 2
"""OpenMP threads of one scoring call. Rows are scored independently, so the scores do not depend on it (a test
checks); two halved the scoring of a question's 100–400 candidate paths on this 2-core machine (8.2 → 4.3 ms for
400 rows of the path ranker). More than two gains little for so few rows and crowds concurrent requests."""


def library_path() -> Path:
    """``lib_lightgbm.so`` of the installed ``lightgbm`` wheel (found without importing the package)."""
    spec = importlib.util.find_spec("lightgbm")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("lightgbm is not installed: pip install lightgbm (a core dependency of medpath)")
    for folder in spec.submodule_search_locations:
        for name in ("lib_lightgbm.so", "lib_lightgbm.dylib", "lib_lightgbm.dll"):
            path = Path(folder) / "lib" / name
            if path.exists():
                return path
    raise ImportError(f"lightgbm's C library is missing under {spec.submodule_search_locations}")


def _lib() -> ctypes.CDLL:
    """The C library (the dynamic loader maps it once per process and shares it with the ``lightgbm`` package)."""
    lib = ctypes.cdll.LoadLibrary(str(library_path()))
    lib.LGBM_GetLastError.restype = ctypes.c_char_p
    return lib


def _check(lib: ctypes.CDLL, rc: int) -> None:
    if rc != 0:
        raise ValueError(f"LightGBM: {lib.LGBM_GetLastError().decode(errors='replace')}")


class Booster:
    """A LightGBM model loaded from its text form; :meth:`predict` gives raw scores, one per row."""

    def __init__(self, model: str) -> None:
        """Parse ``model`` (``Booster.model_to_string()``); a ValueError names what LightGBM refused."""
        self._lib = _lib()
        self._handle = ctypes.c_void_p()
        iterations = ctypes.c_int(0)
        _check(self._lib, self._lib.LGBM_BoosterLoadModelFromString(
            ctypes.c_char_p(model.encode()), ctypes.byref(iterations), ctypes.byref(self._handle)))
        features = ctypes.c_int(0)
        _check(self._lib, self._lib.LGBM_BoosterGetNumFeature(self._handle, ctypes.byref(features)))
        self.num_features = features.value
        """Columns a row must have."""

    def predict(self, x: np.ndarray, num_threads: int = SCORE_THREADS) -> np.ndarray:
        """Raw scores of the rows of ``x`` (every iteration, as ``lightgbm.Booster.predict``), whatever
        ``num_threads``."""
        mat = np.ascontiguousarray(x, dtype=np.float64)
        if mat.ndim != 2 or mat.shape[1] != self.num_features:
            raise ValueError(f"expected rows of {self.num_features} columns, got shape {mat.shape}")
        out = np.empty(mat.shape[0], dtype=np.float64)
        n = ctypes.c_int64(0)
        _check(self._lib, self._lib.LGBM_BoosterPredictForMat(
            self._handle, mat.ctypes.data_as(ctypes.c_void_p), ctypes.c_int(_DTYPE_FLOAT64),
            ctypes.c_int32(mat.shape[0]), ctypes.c_int32(mat.shape[1]), ctypes.c_int(_ROW_MAJOR),
            ctypes.c_int(_PREDICT_NORMAL), ctypes.c_int(0), ctypes.c_int(-1),
            ctypes.c_char_p(f"num_threads={num_threads}".encode()), ctypes.byref(n),
            out.ctypes.data_as(ctypes.POINTER(ctypes.c_double))))
        if n.value != mat.shape[0]:
            raise ValueError(f"LightGBM returned {n.value} scores for {mat.shape[0]} rows")
        return out

    def __del__(self) -> None:
        """Free the model."""
        handle = getattr(self, "_handle", None)
        if handle is not None and handle.value:
            self._lib.LGBM_BoosterFree(handle)
            handle.value = None
