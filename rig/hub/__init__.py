"""Many boards in one hall: each ``rig run`` publishes its board over MQTT, ``rig hub`` follows a tournament.

- :mod:`rig.hub.protocol`: topics, payloads, sequence numbers (docs/hub.md);
- :mod:`rig.hub.outbox`: the board's on-disk outbox (buffer while the broker is away, replay source);
- :mod:`rig.hub.publish`: the live loop's MQTT sink (:class:`MqttPublisher`);
- :mod:`rig.hub.streams`: the hub's per-board sequencing (duplicates, gaps, reordering, replay requests);
- :mod:`rig.hub.model`: a game as the hub knows it; :mod:`rig.hub.store`: the tournament in SQLite;
- :mod:`rig.hub.feed`: the relay feed (a round's multi-game PDN that only ever appends legal moves);
- :mod:`rig.hub.service`: the subscriber; :mod:`rig.hub.web`: the pages, the PDN and the API;
- :mod:`rig.hub.broker`: a Mosquitto broker on a free loopback port (tests, demo, bench).
"""

from __future__ import annotations

from rig.errors import RigError

__all__ = ["HubError"]


class HubError(RigError, ValueError):
    """Bad hub input: an option, a pairings file, a board or tournament id, a broker address."""
