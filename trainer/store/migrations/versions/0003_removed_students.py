"""Removed students stay out: a classroom student remembers which learner (browser) joined.

Revision ID: 0003
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('class_students', schema=None) as batch_op:
        batch_op.add_column(sa.Column('learner_id', sa.String(length=32), nullable=True))
        batch_op.create_index('ix_class_students_session_learner', ['session_id', 'learner_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('class_students', schema=None) as batch_op:
        batch_op.drop_index('ix_class_students_session_learner')
        batch_op.drop_column('learner_id')
