"""``eud serve`` and the viewer: load on loopback and the rendered figures."""
