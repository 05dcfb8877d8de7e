"""Live sessions: an instructor runs a drill in the room, students answer on their phones."""

from . import feed
from .streams import bp as streams_bp
from .views import bp

__all__ = ["bp", "feed", "streams_bp"]
