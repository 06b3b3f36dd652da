"""Small scoring modules: an MLP projection and the biaffine scorer of Dozat & Manning."""

from __future__ import annotations

import torch
from torch import nn


class MLP(nn.Module):
    """Linear → LeakyReLU → dropout: the per-role projection before a biaffine."""

    def __init__(self, n_in: int, n_out: int, dropout: float) -> None:
        super().__init__()
        self.linear = nn.Linear(n_in, n_out)
        self.act = nn.LeakyReLU(0.1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: [..., n_in] → [..., n_out]."""
        return self.dropout(self.act(self.linear(x)))


class Biaffine(nn.Module):
    """``s[b, o, i, j] = [x_i; 1]ᵀ W_o [y_j; 1]``: dependents x against heads y."""

    def __init__(self, n_in: int, n_out: int = 1, bias_x: bool = True, bias_y: bool = True) -> None:
        super().__init__()
        self.n_out = n_out
        self.bias_x, self.bias_y = bias_x, bias_y
        self.weight = nn.Parameter(torch.zeros(n_out, n_in + bias_x, n_in + bias_y))

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """x: [B, N, d], y: [B, M, d] → [B, N, M] (n_out 1) or [B, N, M, n_out]."""
        if self.bias_x:
            x = torch.cat([x, x.new_ones(x.shape[:-1] + (1,))], -1)
        if self.bias_y:
            y = torch.cat([y, y.new_ones(y.shape[:-1] + (1,))], -1)
        s = torch.einsum("bxi,oij,byj->bxyo", x, self.weight, y)  # [B, N, M, n_out]
        return s.squeeze(-1) if self.n_out == 1 else s

    def pairs(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """Scores of aligned pairs only: x, y: [K, d] → [K, n_out] (much cheaper than all pairs)."""
        if self.bias_x:
            x = torch.cat([x, x.new_ones(x.shape[:-1] + (1,))], -1)
        if self.bias_y:
            y = torch.cat([y, y.new_ones(y.shape[:-1] + (1,))], -1)
        return torch.einsum("ki,oij,kj->ko", x, self.weight, y)  # [K, n_out]
