"""Self-study: a spot of the drill, graded step by step, and the learner's progress and review."""

from .progress import bp as progress_bp
from .views import bp

__all__ = ["bp", "progress_bp"]
