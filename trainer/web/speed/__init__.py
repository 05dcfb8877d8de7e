"""Speed drills: one number per generated spot, against the clock."""

from .views import bp

__all__ = ["bp"]
