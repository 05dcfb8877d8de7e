"""Quick live sessions and the game: a session's style ("quick": one thing asked per spot, one tap;
"card": the full card, which every session made before keeps), the kind asked of each spot, a
countdown per question, an anonymous projector and when the current question was shown; an
answer's points.

Revision ID: 0014_quick_live_game
Revises: 0013_review_streak_runs
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0014_quick_live_game'
down_revision = '0013_review_streak_runs'
branch_labels = None
depends_on = None


# Plain ALTER TABLE (no batch copy): on SQLite a copy of class_sessions would be dropped under the
# students' and answers' foreign keys.
def upgrade() -> None:
    op.add_column('class_sessions', sa.Column('style', sa.String(length=8), server_default='card', nullable=False))
    op.add_column('class_sessions', sa.Column('asks', sa.JSON(), nullable=True))
    op.add_column('class_sessions', sa.Column('seconds', sa.Integer(), nullable=True))
    op.add_column('class_sessions', sa.Column('anonymous', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('class_sessions', sa.Column('shown_at', sa.DateTime(), nullable=True))
    op.add_column('class_answers', sa.Column('points', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    op.drop_column('class_answers', 'points')
    for column in ('shown_at', 'anonymous', 'seconds', 'asks', 'style'):
        op.drop_column('class_sessions', column)
