"""One seat per browser and per name in a classroom session: a student's name as compared
(``name_key``: NFKC, case folded, spaces collapsed) is unique in its session, and so is the
browser's learner.

Sessions held before this may break both: a name that read like another (Alice and alice) keeps
its seat under a key of its own, and of one browser's several seats the learner stays on one (a
removed one first, so the browser stays out; else the first taken), the others keep their
answers without it.

Revision ID: 0009_class_seats
Revises: 0008_ratings
Create Date: 2026-12-01
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = '0009_class_seats'
down_revision = '0008_ratings'
branch_labels = None
depends_on = None

students = sa.table(
    'class_students',
    sa.column('id', sa.String),
    sa.column('session_id', sa.String),
    sa.column('name', sa.String),
    sa.column('name_key', sa.String),
    sa.column('learner_id', sa.String),
    sa.column('removed', sa.Boolean),
    sa.column('joined_at', sa.DateTime),
)


def _key(name: str) -> str:
    # trainer.store.classroom.name_key as it was when this ran
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join("".join(c for c in folded if unicodedata.category(c) != "Cf").split())[:200]


def upgrade() -> None:
    with op.batch_alter_table('class_students', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name_key', sa.String(length=200), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(students.c.id, students.c.session_id, students.c.name, students.c.learner_id, students.c.removed)
        .order_by(students.c.session_id, students.c.joined_at, students.c.id)
    ).all()
    keys: set[tuple[str, str]] = set()
    seated: dict[tuple[str, str], str] = {}  # (session, learner) -> the seat that keeps the learner
    for row in sorted(rows, key=lambda r: not r.removed):  # stable: removed seats first, each in joining order
        if row.learner_id is not None:
            seated.setdefault((row.session_id, row.learner_id), row.id)
    for row in rows:
        key = _key(row.name)
        if (row.session_id, key) in keys:
            key = f"{key[:160]}\n{row.id}"  # a newline is in no key made from a name
        keys.add((row.session_id, key))
        values = {"name_key": key}
        if row.learner_id is not None and seated[(row.session_id, row.learner_id)] != row.id:
            values["learner_id"] = None
        connection.execute(sa.update(students).where(students.c.id == row.id).values(**values))
    with op.batch_alter_table('class_students', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=200), nullable=False)
        batch_op.drop_index('ix_class_students_session_learner')
        batch_op.create_unique_constraint('uq_class_students_session_name_key', ['session_id', 'name_key'])
        batch_op.create_unique_constraint('uq_class_students_session_learner', ['session_id', 'learner_id'])


def downgrade() -> None:
    with op.batch_alter_table('class_students', schema=None) as batch_op:
        batch_op.drop_constraint('uq_class_students_session_learner', type_='unique')
        batch_op.drop_constraint('uq_class_students_session_name_key', type_='unique')
        batch_op.create_index('ix_class_students_session_learner', ['session_id', 'learner_id'], unique=False)
        batch_op.drop_column('name_key')
