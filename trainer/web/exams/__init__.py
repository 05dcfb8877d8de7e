"""Exams and certificates: self-study exams, classes of accounts with assigned exams, ``/verify``."""

from .classes import bp as classes_bp
from .views import bp

__all__ = ["bp", "classes_bp"]
