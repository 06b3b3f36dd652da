"""An exponential moving average of a model's weights (Polyak averaging), for tuning and the package.

Training steps move the live weights; the average trails them and is smoother, so it usually
scores better on held-out data than the weights of any single step.  ``ema = 0.999`` in a training
config turns it on: tuning, early stopping and the saved package then use the average.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch import nn


class WeightAverage:
    """Shadow copies of every trainable parameter, updated after each optimiser step."""

    def __init__(self, model: nn.Module, decay: float) -> None:
        if not 0.0 < decay < 1.0:
            raise ValueError(f"ema must lie between 0 and 1, not {decay}")
        self.decay = decay
        self.updates = 0
        self.shadow = {name: p.detach().clone() for name, p in model.named_parameters() if p.requires_grad}

    @torch.no_grad()
    def update(self, model: nn.Module) -> None:
        # Early on the average would be dominated by the random start: warm the decay up.
        self.updates += 1
        decay = min(self.decay, (1 + self.updates) / (10 + self.updates))
        for name, p in model.named_parameters():
            if name in self.shadow:
                self.shadow[name].lerp_(p.detach(), 1.0 - decay)

    @contextmanager
    @torch.no_grad()
    def applied(self, model: nn.Module) -> Iterator[None]:
        """Within the block the model holds the averaged weights; afterwards its live weights again."""
        params = dict(model.named_parameters())
        live = {name: params[name].detach().clone() for name in self.shadow}
        for name, value in self.shadow.items():
            params[name].copy_(value)
        try:
            yield
        finally:
            for name, value in live.items():
                params[name].copy_(value)

    def state_dict(self) -> dict[str, torch.Tensor]:
        return {"updates": torch.tensor(self.updates), **{f"w.{k}": v for k, v in self.shadow.items()}}

    def load_state_dict(self, state: dict[str, torch.Tensor]) -> None:
        self.updates = int(state["updates"])
        for key, value in state.items():
            if key.startswith("w.") and key[2:] in self.shadow:
                self.shadow[key[2:]].copy_(value)
