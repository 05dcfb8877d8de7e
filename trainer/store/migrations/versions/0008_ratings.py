"""Glicko-2 ratings for learners and library spots, and the first tries played as rating games;
attempts that are one step of a spot asked in steps (``partial``).

The spots learners had already answered count as played (unrated): a rating moves on a first try
only, and those were not.

Revision ID: 0008_ratings
Revises: 0005_exam_trust
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = '0008_ratings'
down_revision = '0007_class_exams'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('partial', sa.Boolean(), nullable=True))
    op.create_table(
        'ratings',
        sa.Column('subject', sa.String(length=220), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('rd', sa.Float(), nullable=False),
        sa.Column('vol', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('subject', name=op.f('pk_ratings')),
    )
    op.create_table(
        'rating_games',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('learner_id', sa.String(length=32), nullable=False),
        sa.Column('scenario_id', sa.String(length=200), nullable=False),
        sa.Column('solved', sa.Boolean(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_rating_games')),
        sa.UniqueConstraint('learner_id', 'scenario_id', name=op.f('uq_rating_games_learner_id')),
    )
    op.execute(
        "INSERT INTO rating_games (learner_id, scenario_id, solved, created_at) "
        "SELECT learner_id, scenario_id, NULL, MIN(created_at) FROM attempts "
        "WHERE scenario_id IS NOT NULL GROUP BY learner_id, scenario_id"
    )


def downgrade() -> None:
    op.drop_table('rating_games')
    op.drop_table('ratings')
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.drop_column('partial')
