"""Review like Anki: each review card keeps when it was made, so that the new cards of a day can be
counted against the daily cap (trainer/store/progress.py). Cards made before have no time and count
for no day.

Spaced repetition being on for new learners needs no change here: the models make each learner
(the column's default is the model's), and learners there before keep their setting, on or off.

Revision ID: 0012_review_new_cards
Revises: 0011_history_and_misses
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0012_review_new_cards'
down_revision = '0011_history_and_misses'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('review_cards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('created_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('review_cards', schema=None) as batch_op:
        batch_op.drop_column('created_at')
