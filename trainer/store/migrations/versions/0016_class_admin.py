"""Managing class exams: one student's extra time or late window on an assigned exam, and the
student number an instructor may ask for when students join a class or a live session.

Classes and sessions made before ask for no number; their members and students have none.

Revision ID: 0016_class_admin
Revises: 0015_cert_identity
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0016_class_admin'
down_revision = '0015_cert_identity'
branch_labels = None
depends_on = None


# Plain ALTER TABLE ADD COLUMN (no batch copy): on SQLite a copy of a parent table would be dropped
# under its children's foreign keys.
def upgrade() -> None:
    op.create_table(
        'class_exam_allowances',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('assignment_id', sa.String(length=32), nullable=False),
        sa.Column('account_id', sa.Integer(), nullable=False),
        sa.Column('extra_minutes', sa.Integer(), server_default='0', nullable=False),
        sa.Column('closes_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['assignment_id'], ['class_exams.id'],
                                name=op.f('fk_class_exam_allowances_assignment_id_class_exams')),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id'],
                                name=op.f('fk_class_exam_allowances_account_id_accounts')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_class_exam_allowances')),
        sa.UniqueConstraint('assignment_id', 'account_id', name=op.f('uq_class_exam_allowances_assignment_id')),
    )
    op.add_column('school_classes', sa.Column('ask_number', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('class_members', sa.Column('student_number', sa.String(length=40), nullable=True))
    op.add_column('class_sessions', sa.Column('ask_number', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('class_students', sa.Column('student_number', sa.String(length=40), nullable=True))


def downgrade() -> None:
    op.drop_column('class_students', 'student_number')
    op.drop_column('class_sessions', 'ask_number')
    op.drop_column('class_members', 'student_number')
    op.drop_column('school_classes', 'ask_number')
    op.drop_table('class_exam_allowances')
