"""The board's web pages: board page, OBS overlay, arbiter review, live PDN, JSON API and SSE (docs/web.md).

- :mod:`rig.web.feed`: the live-loop sink keeping the game as published, with numbered messages;
- :mod:`rig.web.actions`: the arbiter's requests turned into session arbiter lines;
- :mod:`rig.web.review`: the journal lines around a moment (ring in memory, then the session file);
- :mod:`rig.web.app`: the Starlette app; :mod:`rig.web.server`: uvicorn on its own thread;
- :mod:`rig.web.config`: ``--listen`` and the ``[web]`` config table;
- :mod:`rig.web.linger`: after the game, the final game served and the arbiter's late decisions applied.
- :mod:`rig.web.sse`: a lean Server-Sent Events response for many viewers (the hub's event streams).

Starlette, sse-starlette and uvicorn are imported only when the pages are served (``rig run --listen``).
"""

from rig.web.config import WebConfig, WebConfigError, load_web_config, parse_listen
from rig.web.feed import GameFeed

__all__ = ["WebConfig", "WebConfigError", "load_web_config", "parse_listen", "GameFeed"]
