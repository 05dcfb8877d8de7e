"""Attempts carry the id their drill form made, unique: an answer sent twice is stored once.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('answer_id', sa.String(length=36), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_attempts_answer_id'), ['answer_id'])


def downgrade() -> None:
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_attempts_answer_id'), type_='unique')
        batch_op.drop_column('answer_id')
