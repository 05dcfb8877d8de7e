"""Exams an employer can trust: each attempt names its account and its attempt number.

Revision ID: 0005_exam_trust
Revises: 0004_session_generation
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = '0005_exam_trust'
down_revision = '0004_session_generation'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('exam_attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('account_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('attempt_number', sa.Integer(), nullable=True))
        batch_op.create_index('ix_exam_attempts_account_id', ['account_id'], unique=False)
        batch_op.create_foreign_key(
            'fk_exam_attempts_account_id_accounts', 'accounts', ['account_id'], ['id']
        )
        batch_op.create_unique_constraint(
            'uq_exam_attempts_account_id', ['account_id', 'template', 'attempt_number']
        )
    # Exams sat before: the account of the learner who sat them (if any), numbered by start time.
    bind = op.get_bind()
    bind.execute(sa.text(
        "UPDATE exam_attempts SET account_id = "
        "(SELECT account_id FROM learners WHERE learners.id = exam_attempts.learner_id)"
    ))
    rows = bind.execute(sa.text(
        "SELECT id, account_id, template FROM exam_attempts WHERE account_id IS NOT NULL "
        "ORDER BY account_id, template, started_at, id"
    )).all()
    number: dict[tuple, int] = {}
    for exam_id, account_id, template in rows:
        n = number[(account_id, template)] = number.get((account_id, template), 0) + 1
        bind.execute(sa.text("UPDATE exam_attempts SET attempt_number = :n WHERE id = :id"), {"n": n, "id": exam_id})


def downgrade() -> None:
    with op.batch_alter_table('exam_attempts', schema=None) as batch_op:
        batch_op.drop_constraint('uq_exam_attempts_account_id', type_='unique')
        batch_op.drop_constraint('fk_exam_attempts_account_id_accounts', type_='foreignkey')
        batch_op.drop_index('ix_exam_attempts_account_id')
        batch_op.drop_column('attempt_number')
        batch_op.drop_column('account_id')
