"""Speed drills: one number per generated spot, against the clock; streaks, where one miss ends it."""

from .streak import bp as streak_bp
from .views import bp

__all__ = ["bp", "streak_bp"]
