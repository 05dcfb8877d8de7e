"""My spots: an instructor's own spots (written in YAML, imported from files or hand histories), private
until shared with a class; usable in live sessions; seen by the class's learners in the drill."""

from . import hands, views
from .views import bp

__all__ = ["bp", "hands", "views"]
