"""Quick live sessions and the game: a session's style ("quick": one thing asked per spot, one tap;
"card": the full card, which every session made before keeps), the kind asked of each spot, a
countdown per question, an anonymous projector and when the current question was shown; an
answer's points.

Revision ID: 0012_quick_live_game
Revises: 0011_history_and_misses
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0012_quick_live_game'
down_revision = '0011_history_and_misses'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('class_sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('style', sa.String(length=8), server_default='card', nullable=False))
        batch_op.add_column(sa.Column('asks', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('seconds', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('anonymous', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('shown_at', sa.DateTime(), nullable=True))
    with op.batch_alter_table('class_answers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('points', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('class_answers', schema=None) as batch_op:
        batch_op.drop_column('points')
    with op.batch_alter_table('class_sessions', schema=None) as batch_op:
        batch_op.drop_column('shown_at')
        batch_op.drop_column('anonymous')
        batch_op.drop_column('seconds')
        batch_op.drop_column('asks')
        batch_op.drop_column('style')
