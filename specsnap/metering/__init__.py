"""SpecSnap's token meter: every token figure that feeds an official TES passes through here.

- `proxy`: the reverse proxy on 127.0.0.1 that holds the real API keys, forwards the agent's
  requests and counts tokens from the answers (streamed ones too, drained even when the agent
  is frozen);
- `anthropic`, `openai`, `gemini`: how each API reports usage in its answers; `apis` binds them
  to base URLs, key variables and key forms; `streams`: the answer framings (SSE, JSON arrays);
- `egress` and `launcher`: the agent in its own network namespace, the meter its only way out;
- `session`: what the session runner starts, gives the agent, and settles afterwards.
"""
