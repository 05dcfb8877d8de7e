"""Streaks: a run of questions of climbing difficulty that one miss ends, with its length kept
for the learner's personal best (trainer/store/streaks.py).

Revision ID: 0013_review_streak_runs
Revises: 0012_review_new_cards
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0013_review_streak_runs'
down_revision = '0012_review_new_cards'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('streak_runs',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('learner_id', sa.String(length=32), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('asked', sa.Integer(), nullable=False),
    sa.Column('missed', sa.Integer(), nullable=True),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['learner_id'], ['learners.id'], name=op.f('fk_streak_runs_learner_id_learners')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_streak_runs'))
    )
    with op.batch_alter_table('streak_runs', schema=None) as batch_op:
        batch_op.create_index('ix_streak_runs_learner_started', ['learner_id', 'started_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('streak_runs', schema=None) as batch_op:
        batch_op.drop_index('ix_streak_runs_learner_started')
    op.drop_table('streak_runs')
