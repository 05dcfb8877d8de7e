"""The home page, the topics and levels, the rules page, the problems page and ``/healthz``."""

from .views import bp

__all__ = ["bp"]
