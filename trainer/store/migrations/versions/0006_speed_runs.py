"""Speed drills: one row per run, its clock and its tally.

Revision ID: 0006_speed_runs
Revises: 0005_exam_trust
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = '0006_speed_runs'
down_revision = '0005_exam_trust'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'speed_runs',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('learner_id', sa.String(length=32), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('seconds', sa.Integer(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=False),
        sa.Column('deadline', sa.DateTime(), nullable=False),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.Column('asked', sa.Integer(), nullable=False),
        sa.Column('right', sa.Integer(), nullable=False),
        sa.Column('wrong', sa.Integer(), nullable=False),
        sa.Column('score', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['learner_id'], ['learners.id'], name='fk_speed_runs_learner_id_learners'),
        sa.PrimaryKeyConstraint('id', name='pk_speed_runs'),
    )
    op.create_index('ix_speed_runs_learner_started', 'speed_runs', ['learner_id', 'started_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_speed_runs_learner_started', table_name='speed_runs')
    op.drop_table('speed_runs')
