"""OpenAI-compatible LLM provider (hosted, llama.cpp or vLLM), set by base URL and key."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from core.errors import LLMError, LLMUnavailableError
from core.settings import LLMSettings

__all__ = ["LLMClient"]


class LLMClient:
    """Thin wrapper over ``openai.OpenAI`` that maps its errors onto the medpath tree."""

    def __init__(self, settings: LLMSettings, http_client: Any = None) -> None:
        """Create the client; ``http_client`` (an ``httpx.Client``) can be injected for tests."""
        try:
            import openai
        except ImportError as exc:
            raise ImportError("the LLM backend needs the extra: pip install 'medpath[llm]'") from exc
        self._openai = openai
        self.settings = settings
        self._client = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or "not-needed",
            timeout=settings.timeout_s,
            max_retries=settings.max_retries,
            http_client=http_client,
        )

    def _chat(self, prompt: str, **kwargs: Any) -> Any:
        """One chat completion in a GenAI-convention span (``chat {model}``); the prompt only with content capture."""
        from core.tracing import error, set_content, span

        o = self._openai
        attrs = {"gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.provider.name": "openai",
                 "gen_ai.request.model": self.settings.model, "gen_ai.request.temperature": 0.0,
                 "gen_ai.request.max_tokens": kwargs.get("max_tokens"), "server.address": self.settings.base_url}
        with span(f"chat {self.settings.model}", **attrs) as sp:
            set_content(sp, "gen_ai.input.messages", [{"role": "user", "content": prompt}])
            try:
                resp = self._within_deadline(
                    lambda: self._client.chat.completions.create(
                        model=self.settings.model, messages=[{"role": "user", "content": prompt}], temperature=0, **kwargs))
            except (o.APITimeoutError, o.APIConnectionError, TimeoutError) as exc:
                err: LLMError = LLMUnavailableError(f"LLM at {self.settings.base_url} unreachable: {exc}")
                error(sp, err, "LLM unreachable")
                raise err from exc
            except o.APIStatusError as exc:
                err = LLMError(f"LLM returned HTTP {exc.status_code}")
                error(sp, err, f"HTTP {exc.status_code}")
                raise err from exc
            except o.OpenAIError as exc:
                err = LLMError(f"LLM call failed: {exc}")
                error(sp, err, "LLM call failed")
                raise err from exc
            except ValueError as exc:  # a 200 whose body is not JSON (a proxy's HTML page, a truncated stream)
                err = LLMError("LLM answer is not JSON")
                error(sp, err, "LLM answer is not JSON")
                raise err from exc
            usage = getattr(resp, "usage", None)
            if usage is not None:
                sp.set_attribute("gen_ai.usage.input_tokens", int(getattr(usage, "prompt_tokens", 0) or 0))
                sp.set_attribute("gen_ai.usage.output_tokens", int(getattr(usage, "completion_tokens", 0) or 0))
            sp.set_attribute("gen_ai.response.model", str(getattr(resp, "model", "") or ""))
            return resp

    @property
    def deadline_s(self) -> float:
        """The whole call's deadline: the per-request timeout for every attempt. A server that sends one byte every
        few seconds never trips a read timeout; this bounds it."""
        return self.settings.timeout_s * (1 + max(0, self.settings.max_retries))

    def _within_deadline(self, call: Callable[[], Any]) -> Any:
        """Run ``call`` in a worker thread and stop waiting at the deadline (the abandoned request ends on its own)."""
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="medpath-llm")
        try:
            return pool.submit(call).result(timeout=self.deadline_s)
        except FutureTimeout as exc:
            raise TimeoutError(f"no complete answer within {self.deadline_s:.0f} s") from exc
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def complete(self, prompt: str, max_tokens: int = 400) -> str:
        """The model's text answer to a single-turn prompt."""
        resp = self._chat(prompt, max_tokens=max_tokens)
        try:
            return str(resp.choices[0].message.content or "")
        except (AttributeError, IndexError) as exc:
            raise LLMError("LLM answer had no choices") from exc

    def yes_probability(self, prompt: str) -> float:
        """P("yes") for a yes/no prompt: from token log-probabilities, else from a JSON judgment."""
        resp = self._chat(prompt + "\nAnswer yes or no.", max_tokens=1, logprobs=True, top_logprobs=10)
        try:
            top = resp.choices[0].logprobs.content[0].top_logprobs
            yes = sum(math.exp(t.logprob) for t in top if t.token.strip().lower() == "yes")
            no = sum(math.exp(t.logprob) for t in top if t.token.strip().lower() == "no")
            if yes + no > 0:
                return yes / (yes + no)
        except (AttributeError, IndexError, TypeError):
            pass
        text = self.complete(prompt + '\nAnswer with JSON only: {"answer": "yes" or "no", "confidence": 0.0-1.0}', 60)
        start, end = text.find("{"), text.rfind("}")
        try:
            obj = json.loads(text[start : end + 1])
            conf = min(1.0, max(0.0, float(obj.get("confidence", 0.5))))
            return conf if str(obj.get("answer", "")).lower().startswith("y") else 1.0 - conf
        except (ValueError, TypeError, AttributeError) as exc:
            low = text.strip().lower()
            if low.startswith("yes"):
                return 0.75
            if low.startswith("no"):
                return 0.25
            raise LLMError("LLM judgment was neither yes/no nor JSON") from exc
