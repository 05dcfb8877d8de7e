"""Exams for a class: classes of accounts with an invite code, their members, exams assigned to a
class with an open/close window, and the attempts sat for such an assignment.

Revision ID: 0007_class_exams
Revises: 0005_exam_trust
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = '0007_class_exams'
down_revision = '0006_speed_runs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'school_classes',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('instructor_id', sa.Integer(), nullable=False),
        sa.Column('title', sa.String(length=120), nullable=False),
        sa.Column('code', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['instructor_id'], ['accounts.id'], name='fk_school_classes_instructor_id_accounts'),
        sa.PrimaryKeyConstraint('id', name='pk_school_classes'),
        sa.UniqueConstraint('code', name='uq_school_classes_code'),
    )
    op.create_index('ix_school_classes_instructor_id', 'school_classes', ['instructor_id'], unique=False)
    op.create_table(
        'class_members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('class_id', sa.String(length=32), nullable=False),
        sa.Column('account_id', sa.Integer(), nullable=False),
        sa.Column('joined_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name='fk_class_members_account_id_accounts'),
        sa.ForeignKeyConstraint(['class_id'], ['school_classes.id'], name='fk_class_members_class_id_school_classes'),
        sa.PrimaryKeyConstraint('id', name='pk_class_members'),
        sa.UniqueConstraint('class_id', 'account_id', name='uq_class_members_class_id'),
    )
    op.create_index('ix_class_members_account_id', 'class_members', ['account_id'], unique=False)
    op.create_table(
        'class_exams',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('class_id', sa.String(length=32), nullable=False),
        sa.Column('template', sa.String(length=60), nullable=False),
        sa.Column('opens_at', sa.DateTime(), nullable=False),
        sa.Column('closes_at', sa.DateTime(), nullable=False),
        sa.Column('time_zone', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['class_id'], ['school_classes.id'], name='fk_class_exams_class_id_school_classes'),
        sa.PrimaryKeyConstraint('id', name='pk_class_exams'),
    )
    op.create_index('ix_class_exams_class_id', 'class_exams', ['class_id'], unique=False)
    with op.batch_alter_table('exam_attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('assignment_id', sa.String(length=32), nullable=True))
        batch_op.create_index('ix_exam_attempts_assignment_id', ['assignment_id'], unique=False)
        batch_op.create_foreign_key(
            'fk_exam_attempts_assignment_id_class_exams', 'class_exams', ['assignment_id'], ['id']
        )


def downgrade() -> None:
    with op.batch_alter_table('exam_attempts', schema=None) as batch_op:
        batch_op.drop_constraint('fk_exam_attempts_assignment_id_class_exams', type_='foreignkey')
        batch_op.drop_index('ix_exam_attempts_assignment_id')
        batch_op.drop_column('assignment_id')
    op.drop_index('ix_class_exams_class_id', table_name='class_exams')
    op.drop_table('class_exams')
    op.drop_index('ix_class_members_account_id', table_name='class_members')
    op.drop_table('class_members')
    op.drop_index('ix_school_classes_instructor_id', table_name='school_classes')
    op.drop_table('school_classes')
