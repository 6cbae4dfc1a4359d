"""The OpenAI-compatible path against a local server, and the fallback when it is down."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agents.state import Status
from core.errors import LLMUnavailableError
from core.settings import LLMSettings
from tools.llm import LLMClient
from tools.resources import Resources


def _with_llm(resources: Resources, base_url: str) -> Resources:
    llm = LLMSettings(base_url=base_url, api_key="k", model="local", timeout_s=2.0, max_retries=0)
    return replace(resources, settings=replace(resources.settings, llm=llm))


def test_client_against_local_server(fake_llm) -> None:
    url, calls = fake_llm
    client = LLMClient(LLMSettings(base_url=url, api_key="k", model="local", max_retries=0))
    assert client.yes_probability("Is water wet?") > 0.9
    assert calls and calls[-1]["model"] == "local"


def test_pipeline_uses_llm_reviewer_and_explainer(fake_llm, run_graph, resources) -> None:
    url, _calls = fake_llm
    out, _ = run_graph({"question": "How does imatinib treat CML (ph+)?"}, resources=_with_llm(resources, url))
    assert out["status"] is Status.ANSWERED
    assert out["review"]["backend"] == "llm"
    assert out["answer"].startswith("Imatinib blocks BCR/ABL")
    assert not out["fallbacks"]


def test_dead_llm_falls_back_and_records_it(run_graph, resources, free_port) -> None:
    dead = _with_llm(resources, f"http://127.0.0.1:{free_port}/v1")
    with pytest.raises(LLMUnavailableError):
        LLMClient(dead.settings.llm).complete("hi")
    out, _ = run_graph({"question": "How does imatinib treat CML (ph+)?"}, resources=dead)
    assert out["status"] is Status.ANSWERED
    assert out["review"]["backend"] == "embedded"
    comps = {f["component"] for f in out["fallbacks"]}
    assert {"reviewer.llm", "explainer.llm"} <= comps
