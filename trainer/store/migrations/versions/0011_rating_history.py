"""Rating history: each rating game keeps its score (the share of the spot's fields answered right)
and the learner's rating after it, which the progress page draws as a line.

Games played before have neither: they are left out of the history.

Revision ID: 0011_rating_history
Revises: 0010_account_sessions
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = '0011_rating_history'
down_revision = '0010_account_sessions'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rating_games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('score', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('rating', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('rating_games', schema=None) as batch_op:
        batch_op.drop_column('rating')
        batch_op.drop_column('score')
