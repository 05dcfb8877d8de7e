"""Identity and provenance of exam results: the candidate number typed for the attempt (the name
typed for it goes in the name column, as the account's name did before), when and by which
instructor a result was revoked, and when an assigned exam's review shows the answers.

Attempts sat before have no candidate number and are not revoked; assignments made before take
their template's review setting.

Revision ID: 0015_cert_identity
Revises: 0014_quick_live_game
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0015_cert_identity'
down_revision = '0014_quick_live_game'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('exam_attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('candidate_number', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('revoked_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('revoked_by', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_exam_attempts_revoked_by_accounts', 'accounts', ['revoked_by'], ['id'])
    with op.batch_alter_table('class_exams', schema=None) as batch_op:
        batch_op.add_column(sa.Column('review', sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('class_exams', schema=None) as batch_op:
        batch_op.drop_column('review')
    with op.batch_alter_table('exam_attempts', schema=None) as batch_op:
        batch_op.drop_constraint('fk_exam_attempts_revoked_by_accounts', type_='foreignkey')
        batch_op.drop_column('revoked_by')
        batch_op.drop_column('revoked_at')
        batch_op.drop_column('candidate_number')
