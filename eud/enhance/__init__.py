"""Rule-based conversion of basic UD trees to enhanced UD graphs (the library behind ``eud enhance``)."""

from eud.enhance.pipeline import RULE_ORDER, Enhancer
from eud.enhance.profiles import Profile, find_profile, load_profile

__all__ = ["RULE_ORDER", "Enhancer", "Profile", "find_profile", "load_profile"]
