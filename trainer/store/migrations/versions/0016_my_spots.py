"""Instructors' own spots: the spot, its versions (an edit adds one; answers point at a version),
the classes it is shared with, and hand-history uploads waiting to be kept.

Revision ID: 0016_my_spots
Revises: 0015_cert_identity
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0016_my_spots'
down_revision = '0015_cert_identity'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'my_spots',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('owner_id', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('title', sa.String(length=200), nullable=False),
        sa.Column('scenario_id', sa.String(length=200), nullable=False),
        sa.Column('archived_at', sa.DateTime(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['owner_id'], ['accounts.id'], name='fk_my_spots_owner_id_accounts'),
        sa.PrimaryKeyConstraint('id', name='pk_my_spots'),
    )
    op.create_index('ix_my_spots_owner_id', 'my_spots', ['owner_id'])
    op.create_table(
        'my_spot_versions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('spot_id', sa.String(length=32), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('yaml', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['spot_id'], ['my_spots.id'], name='fk_my_spot_versions_spot_id_my_spots'),
        sa.PrimaryKeyConstraint('id', name='pk_my_spot_versions'),
        sa.UniqueConstraint('spot_id', 'version', name='uq_my_spot_versions_spot_id'),
    )
    op.create_index('ix_my_spot_versions_spot_id', 'my_spot_versions', ['spot_id'])
    op.create_table(
        'my_spot_shares',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('spot_id', sa.String(length=32), nullable=False),
        sa.Column('class_id', sa.String(length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['class_id'], ['school_classes.id'], name='fk_my_spot_shares_class_id_school_classes'),
        sa.ForeignKeyConstraint(['spot_id'], ['my_spots.id'], name='fk_my_spot_shares_spot_id_my_spots'),
        sa.PrimaryKeyConstraint('id', name='pk_my_spot_shares'),
        sa.UniqueConstraint('spot_id', 'class_id', name='uq_my_spot_shares_spot_id'),
    )
    op.create_index('ix_my_spot_shares_spot_id', 'my_spot_shares', ['spot_id'])
    op.create_index('ix_my_spot_shares_class_id', 'my_spot_shares', ['class_id'])
    op.create_table(
        'spot_uploads',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('owner_id', sa.Integer(), nullable=False),
        sa.Column('mode', sa.String(length=20), nullable=False),
        sa.Column('report', sa.JSON(), nullable=False),
        sa.Column('spots', sa.JSON(), nullable=False),
        sa.Column('kept', sa.JSON(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['owner_id'], ['accounts.id'], name='fk_spot_uploads_owner_id_accounts'),
        sa.PrimaryKeyConstraint('id', name='pk_spot_uploads'),
    )
    op.create_index('ix_spot_uploads_owner_id', 'spot_uploads', ['owner_id'])


def downgrade() -> None:
    op.drop_index('ix_spot_uploads_owner_id', table_name='spot_uploads')
    op.drop_table('spot_uploads')
    op.drop_index('ix_my_spot_shares_class_id', table_name='my_spot_shares')
    op.drop_index('ix_my_spot_shares_spot_id', table_name='my_spot_shares')
    op.drop_table('my_spot_shares')
    op.drop_index('ix_my_spot_versions_spot_id', table_name='my_spot_versions')
    op.drop_table('my_spot_versions')
    op.drop_index('ix_my_spots_owner_id', table_name='my_spots')
    op.drop_table('my_spots')
