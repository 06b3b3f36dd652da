"""Rule-based conversion of basic UD trees to enhanced UD graphs (``eud enhance``)."""

from eud.enhance.command import main
from eud.enhance.pipeline import RULE_ORDER, Enhancer
from eud.enhance.profiles import Profile, find_profile, load_profile

__all__ = ["RULE_ORDER", "Enhancer", "Profile", "find_profile", "load_profile", "main"]
