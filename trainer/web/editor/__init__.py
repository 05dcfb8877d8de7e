"""The scenario editor: an instructor builds a spot in forms, each step checked by the engine and
the loader, and takes it away as YAML (or saves it among their spots)."""

from .views import bp

__all__ = ["bp"]
