"""The WebSocket protocol (docs/PROTOCOL.md): message models, per-socket send queues, the endpoint."""
