"""Accounts: sign up, sign in, sign out, change the password, end other sessions."""

from .views import bp

__all__ = ["bp"]
