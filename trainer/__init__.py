"""Holdem Rules Trainer: the betting rules of Texas Hold'em, drilled and graded."""
