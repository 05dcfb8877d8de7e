"""The card lesson: the four-column card taught one column at a time on a real spot of the library."""

from .views import bp

__all__ = ["bp"]
