"""``eud serve`` and the viewer: load, faults and shutdown on loopback, and the rendered figures."""
