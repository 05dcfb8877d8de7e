"""The first schema: learners, accounts, attempts, review cards, exams, classroom sessions.

Revision ID: 0001
Revises: 
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('is_instructor', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_accounts')),
    sa.UniqueConstraint('email', name=op.f('uq_accounts_email'))
    )
    op.create_table('class_sessions',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('instructor_id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=120), nullable=False),
    sa.Column('code', sa.String(length=16), nullable=False),
    sa.Column('mode', sa.String(length=10), nullable=False),
    sa.Column('questions', sa.JSON(), nullable=False),
    sa.Column('state', sa.String(length=10), nullable=False),
    sa.Column('current', sa.Integer(), nullable=False),
    sa.Column('revealed', sa.Boolean(), nullable=False),
    sa.Column('deadline', sa.DateTime(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['instructor_id'], ['accounts.id'], name=op.f('fk_class_sessions_instructor_id_accounts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_class_sessions')),
    sa.UniqueConstraint('code', name=op.f('uq_class_sessions_code'))
    )
    with op.batch_alter_table('class_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_class_sessions_instructor_id'), ['instructor_id'], unique=False)

    op.create_table('learners',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('srs_enabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_learners_account_id_accounts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_learners')),
    sa.UniqueConstraint('account_id', name=op.f('uq_learners_account_id'))
    )
    op.create_table('attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('learner_id', sa.String(length=32), nullable=False),
    sa.Column('scenario_id', sa.String(length=200), nullable=True),
    sa.Column('gen_topic', sa.String(length=40), nullable=True),
    sa.Column('gen_level', sa.Integer(), nullable=True),
    sa.Column('gen_seed', sa.Integer(), nullable=True),
    sa.Column('gen_index', sa.Integer(), nullable=True),
    sa.Column('topics', sa.JSON(), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('answers', sa.JSON(), nullable=False),
    sa.Column('marks', sa.JSON(), nullable=False),
    sa.Column('right', sa.Integer(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('duration_ms', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['learner_id'], ['learners.id'], name=op.f('fk_attempts_learner_id_learners')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_attempts'))
    )
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.create_index('ix_attempts_learner_created', ['learner_id', 'created_at'], unique=False)

    op.create_table('class_students',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('session_id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('removed', sa.Boolean(), nullable=False),
    sa.Column('joined_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['class_sessions.id'], name=op.f('fk_class_students_session_id_class_sessions')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_class_students')),
    sa.UniqueConstraint('session_id', 'name', name=op.f('uq_class_students_session_id'))
    )
    op.create_table('exam_attempts',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('learner_id', sa.String(length=32), nullable=False),
    sa.Column('template', sa.String(length=60), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('questions', sa.JSON(), nullable=False),
    sa.Column('time_limit_s', sa.Integer(), nullable=False),
    sa.Column('pass_mark', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('deadline', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.Column('closed_by', sa.String(length=10), nullable=True),
    sa.Column('score', sa.Integer(), nullable=True),
    sa.Column('passed', sa.Boolean(), nullable=True),
    sa.Column('verify_code', sa.String(length=16), nullable=True),
    sa.ForeignKeyConstraint(['learner_id'], ['learners.id'], name=op.f('fk_exam_attempts_learner_id_learners')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exam_attempts')),
    sa.UniqueConstraint('verify_code', name=op.f('uq_exam_attempts_verify_code'))
    )
    with op.batch_alter_table('exam_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_exam_attempts_deadline'), ['deadline'], unique=False)
        batch_op.create_index(batch_op.f('ix_exam_attempts_learner_id'), ['learner_id'], unique=False)

    op.create_table('review_cards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('learner_id', sa.String(length=32), nullable=False),
    sa.Column('scenario_id', sa.String(length=200), nullable=False),
    sa.Column('card', sa.JSON(), nullable=False),
    sa.Column('due', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['learner_id'], ['learners.id'], name=op.f('fk_review_cards_learner_id_learners')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_review_cards')),
    sa.UniqueConstraint('learner_id', 'scenario_id', name=op.f('uq_review_cards_learner_id'))
    )
    with op.batch_alter_table('review_cards', schema=None) as batch_op:
        batch_op.create_index('ix_review_cards_learner_due', ['learner_id', 'due'], unique=False)

    op.create_table('class_answers',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('session_id', sa.String(length=32), nullable=False),
    sa.Column('student_id', sa.String(length=32), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('typed', sa.JSON(), nullable=False),
    sa.Column('answers', sa.JSON(), nullable=False),
    sa.Column('marks', sa.JSON(), nullable=False),
    sa.Column('right', sa.Integer(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['class_sessions.id'], name=op.f('fk_class_answers_session_id_class_sessions')),
    sa.ForeignKeyConstraint(['student_id'], ['class_students.id'], name=op.f('fk_class_answers_student_id_class_students')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_class_answers')),
    sa.UniqueConstraint('student_id', 'position', name=op.f('uq_class_answers_student_id'))
    )
    with op.batch_alter_table('class_answers', schema=None) as batch_op:
        batch_op.create_index('ix_class_answers_session_position', ['session_id', 'position'], unique=False)

    op.create_table('exam_answers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('exam_id', sa.String(length=32), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('answers', sa.JSON(), nullable=False),
    sa.Column('saved_at', sa.DateTime(), nullable=False),
    sa.Column('marks', sa.JSON(), nullable=True),
    sa.Column('right', sa.Integer(), nullable=True),
    sa.Column('total', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['exam_id'], ['exam_attempts.id'], name=op.f('fk_exam_answers_exam_id_exam_attempts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exam_answers')),
    sa.UniqueConstraint('exam_id', 'position', name=op.f('uq_exam_answers_exam_id'))
    )


def downgrade() -> None:
    op.drop_table('exam_answers')
    with op.batch_alter_table('class_answers', schema=None) as batch_op:
        batch_op.drop_index('ix_class_answers_session_position')

    op.drop_table('class_answers')
    with op.batch_alter_table('review_cards', schema=None) as batch_op:
        batch_op.drop_index('ix_review_cards_learner_due')

    op.drop_table('review_cards')
    with op.batch_alter_table('exam_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_exam_attempts_learner_id'))
        batch_op.drop_index(batch_op.f('ix_exam_attempts_deadline'))

    op.drop_table('exam_attempts')
    op.drop_table('class_students')
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_attempts_learner_created')

    op.drop_table('attempts')
    op.drop_table('learners')
    with op.batch_alter_table('class_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_class_sessions_instructor_id'))

    op.drop_table('class_sessions')
    op.drop_table('accounts')
