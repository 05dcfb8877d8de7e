"""My spots in the store, on SQLite and PostgreSQL: saved through the loader, versioned, private until shared."""

from __future__ import annotations

import pytest

from trainer.store import classes
from trainer.store import spots as store
from trainer.store.models import Account, ClassMember

SPOT = """\
title: "<b>x</b> =HYPERLINK(\\"x\\")"
topics: [min-raise]
game:
  type: no-limit
  blinds: [50, 100]
stacks: {SB: 5000, BB: 5000, UTG: 5000, HJ: 5000, BTN: 5000}
actions:
  - UTG raise 300
ask: [card, options]
"""


def _account(s, email: str, *, instructor: bool = True) -> Account:
    made = Account(email=email, password_hash="x", name=email.split("@")[0], is_instructor=instructor)
    s.add(made)
    s.flush()
    return made


def test_a_spot_is_saved_and_an_edit_adds_a_version(s):
    teacher = _account(s, "t@example.com")
    spot = store.save_spot(s, teacher.id, SPOT)
    assert spot.version == 1 and spot.title == '<b>x</b> =HYPERLINK("x")'
    again = store.save_spot(s, teacher.id, SPOT, spot.id)
    assert again.version == 1  # the same text adds no version
    edited = store.save_spot(s, teacher.id, SPOT.replace("UTG raise 300", "UTG raise 400"), spot.id)
    assert edited.version == 2
    s.commit()
    assert "raise 300" in store.text_of(s, spot.id, 1)
    assert "raise 400" in store.text_of(s, spot.id, 2)
    assert [v.version for v in store.versions_of(s, spot)] == [1, 2]
    assert store.ref(spot.id, 2) == f"my:{spot.id}:2"
    assert store.ref_parts(f"my:{spot.id}:2") == (spot.id, 2)
    assert store.ref_parts("my:nothex:2") is None and store.ref_parts(f"my:{spot.id}:x") is None


def test_bad_yaml_is_refused_with_its_line_and_key_and_nothing_is_saved(s):
    teacher = _account(s, "t@example.com")
    problems = store.save_spot(s, teacher.id, SPOT.replace("UTG raise 300", "UTG raise abc"))
    assert isinstance(problems, list) and problems[0].line == 8
    assert "abc" in problems[0].message
    wrong_key = store.save_spot(s, teacher.id, SPOT.replace("stacks:", "stack:"))
    assert wrong_key[0].line == 6 and "stack" in wrong_key[0].message
    nul = store.save_spot(s, teacher.id, SPOT + "\x00")
    assert isinstance(nul, list) and "NUL" in nul[0].message
    assert store.spots_of(s, teacher.id) == []


def test_another_instructors_spot_cannot_be_edited(s):
    teacher, other = _account(s, "t@example.com"), _account(s, "o@example.com")
    spot = store.save_spot(s, teacher.id, SPOT)
    with pytest.raises(store.SpotsError):
        store.save_spot(s, other.id, SPOT, spot.id)
    assert store.of_owner(s, spot.id, other.id) is None


def test_private_until_shared_with_a_class_and_archived_hides_it(s):
    teacher, student, other = _account(s, "t@example.com"), _account(s, "s@example.com", instructor=False), \
        _account(s, "o@example.com")
    spot = store.save_spot(s, teacher.id, SPOT)
    group = classes.create(s, instructor_id=teacher.id, title="Evening class")
    theirs = classes.create(s, instructor_id=other.id, title="Not mine")
    s.add(ClassMember(class_id=group.id, account_id=student.id))
    s.flush()
    assert store.can_see(s, spot.id, teacher.id)
    assert not store.can_see(s, spot.id, student.id) and store.shared_with(s, student.id) == []
    store.share(s, spot, [group.id, theirs.id])  # a class of another instructor's is ignored
    s.commit()
    assert store.shared_classes(s, spot) == [group.id]
    assert store.can_see(s, spot.id, student.id) and not store.can_see(s, spot.id, other.id)
    assert [(found.id, title) for found, title in store.shared_with(s, student.id)] == [(spot.id, "Evening class")]
    store.archive(s, spot)
    s.commit()
    assert store.spots_of(s, teacher.id) == [] and [x.id for x in store.spots_of(s, teacher.id, archived=True)] == [spot.id]
    assert not store.can_see(s, spot.id, student.id) and store.shared_with(s, student.id) == []


def test_an_upload_is_its_owners_and_each_spot_is_kept_once(s):
    teacher, other = _account(s, "t@example.com"), _account(s, "o@example.com")
    upload = store.add_upload(s, teacher.id, mode="teaching", report={"files": [], "refusals": []},
                              spots=[{"id": "a", "title": "A", "topics": [], "yaml": SPOT},
                                     {"id": "b", "title": "B", "topics": [], "yaml": "game: 1\n"}])
    s.commit()
    assert store.upload_of(s, upload.id, other.id) is None
    saved, refused = store.keep(s, upload, [0, 1, 7])
    assert len(saved) == 1 and refused[0][0] == 1
    saved, refused = store.keep(s, upload, [0])
    assert saved == [] and upload.kept == [0]
    s.commit()
    assert len(store.spots_of(s, teacher.id)) == 1
