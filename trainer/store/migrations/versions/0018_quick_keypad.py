"""Quick live sessions: amounts typed on the phone's number pad instead of four to tap
(``class_sessions.keypad``; every session made before keeps its four buttons).

Revision ID: 0018_quick_keypad
Revises: 0017_my_spots
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0018_quick_keypad'
down_revision = '0017_my_spots'
branch_labels = None
depends_on = None


# Plain ALTER TABLE (no batch copy), as 0014: a copy of class_sessions would be dropped under the
# students' and answers' foreign keys on SQLite.
def upgrade() -> None:
    op.add_column('class_sessions', sa.Column('keypad', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    op.drop_column('class_sessions', 'keypad')
