"""Rating history: each rating game keeps its score (the share of the spot's fields answered right)
and the learner's rating after it, which the progress page draws as a line. Speed runs keep the
questions answered wrong (listed with their worked answers at the end) and when the last answer
came (a run left long before its end does not count as a best).

Games played and runs made before have none of these: they are left out of the history, and a run
from before keeps the score it has.

Revision ID: 0011_history_and_misses
Revises: 0010_account_sessions
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = '0011_history_and_misses'
down_revision = '0010_account_sessions'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rating_games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('score', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('rating', sa.Float(), nullable=True))
    with op.batch_alter_table('speed_runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('missed', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('answered_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('speed_runs', schema=None) as batch_op:
        batch_op.drop_column('answered_at')
        batch_op.drop_column('missed')
    with op.batch_alter_table('rating_games', schema=None) as batch_op:
        batch_op.drop_column('rating')
        batch_op.drop_column('score')
