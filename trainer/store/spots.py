"""An instructor's own spots ("My spots"): saved from scenario YAML, versioned, shared with classes.

A spot is saved from its YAML text through the same loader as the library's
files (``trainer.scenarios.load_text``), so it is refused with the same
messages, by line and key. Every change of the text adds a version and the
spot's reference names the version (``my:<id>:<version>``): a live session,
a drill answer or an exam that used version 2 keeps being shown and graded
against version 2 after the spot is edited to version 3. Versions are never
changed or deleted; archiving a spot hides it from lists and new sessions.

Private until shared: a spot is seen by its owner, and by the members of
the classes (``SchoolClass``) the owner shared it with.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from trainer.scenarios import MAX_FILE_BYTES, ScenarioError, load_text
from trainer.translations import DEFAULT, pick

from .learners import new_id
from .models import ClassMember, MySpot, MySpotShare, MySpotVersion, SchoolClass, SpotUpload, now
from .user_errors import N_, UserError

PREFIX = "my:"
FILE = "spot.yaml"  # the name the loader's messages give a spot typed in the browser
MAX_SPOTS = 5000  # an instructor's spots, archived ones included
MAX_TITLE = 200


class SpotsError(UserError):
    """Something My spots does not allow; the message is for the instructor."""


@dataclass(frozen=True, kw_only=True)
class Located:
    """What the loader refused, where: ``line`` (from 1) and ``key`` when it knows them."""

    line: int | None
    key: str | None
    message: str

    def __str__(self) -> str:
        return f"{FILE}:{self.line}: {self.message}" if self.line else self.message


def ref(spot_id: str, version: int) -> str:
    """The reference exams, live sessions and drill answers store: ``my:<id>:<version>``."""
    return f"{PREFIX}{spot_id}:{version}"


def ref_parts(reference: str) -> tuple[str, int] | None:
    """``(spot id, version)`` of a ``my:`` reference, or None when it is not one."""
    if not reference.startswith(PREFIX):
        return None
    _, _, rest = reference.partition(":")
    spot_id, _, version = rest.partition(":")
    if len(spot_id) != 32 or not all(c in "0123456789abcdef" for c in spot_id):
        return None
    if not (version.isascii() and version.isdigit()) or len(version) > 9:
        return None
    return spot_id, int(version)


def check(yaml_text: str, file: str = FILE):
    """The scenario the text describes, or the first problem the loader finds in it, located."""
    if len(yaml_text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        return Located(line=1, key=None, message=f"the text is larger than {MAX_FILE_BYTES:,} bytes: a scenario is one spot")
    try:
        return load_text(yaml_text, file)
    except ScenarioError as exc:
        return Located(line=exc.line, key=exc.key, message=exc.message)


def save_spot(s: Session, owner_id: int, yaml_text: str, spot_id: str | None = None) -> MySpot | list[Located]:
    """Save ``yaml_text`` as a new spot of ``owner_id``, or as the next version of their spot ``spot_id``.

    Returns the spot (its ``version`` is the one just saved; text equal to the latest
    version's adds none), or the problems that stop it, each with line and key: nothing is
    saved then. The caller commits. Raises ``SpotsError`` when ``spot_id`` is not a spot of
    the owner's, or the owner has ``MAX_SPOTS`` already."""
    found = check(yaml_text)
    if isinstance(found, Located):
        return [found]
    title = (pick(found.title, DEFAULT) or found.id or "")[:MAX_TITLE]
    at = now()
    if spot_id is None:
        if s.scalar(select(func.count()).select_from(MySpot).where(MySpot.owner_id == owner_id)) >= MAX_SPOTS:
            raise SpotsError(N_("You have %(n)s spots, as many as one account keeps."), n=MAX_SPOTS)
        spot = MySpot(id=new_id(), owner_id=owner_id, version=1, title=title, scenario_id=found.id[:200],
                      created_at=at, updated_at=at)
        s.add(spot)
        s.flush()
    else:
        spot = of_owner(s, spot_id, owner_id)
        if spot is None:
            raise SpotsError(N_("There is no spot of yours with that name."))
        if text_of(s, spot.id, spot.version) == yaml_text:
            return spot
        spot.version += 1
        spot.title, spot.scenario_id, spot.updated_at = title, found.id[:200], at
    s.add(MySpotVersion(spot_id=spot.id, version=spot.version, yaml=yaml_text, created_at=at))
    s.flush()
    return spot


def of_owner(s: Session, spot_id: str, owner_id: int) -> MySpot | None:
    return s.scalar(select(MySpot).where(MySpot.id == spot_id, MySpot.owner_id == owner_id))


def spots_of(s: Session, owner_id: int, *, archived: bool = False) -> list[MySpot]:
    """The owner's spots, last changed first (the archived ones, or the others)."""
    which = MySpot.archived_at.is_not(None) if archived else MySpot.archived_at.is_(None)
    return list(s.scalars(select(MySpot).where(MySpot.owner_id == owner_id, which).order_by(MySpot.updated_at.desc())))


def text_of(s: Session, spot_id: str, version: int) -> str | None:
    """The YAML of one version, as saved (any spot: the caller has checked who may see it)."""
    return s.scalar(select(MySpotVersion.yaml).where(MySpotVersion.spot_id == spot_id, MySpotVersion.version == version))


def versions_of(s: Session, spot: MySpot) -> list[MySpotVersion]:
    return list(s.scalars(select(MySpotVersion).where(MySpotVersion.spot_id == spot.id).order_by(MySpotVersion.version)))


def archive(s: Session, spot: MySpot, *, archived: bool = True) -> None:
    """Hide the spot from lists, new sessions and the classes' drill (its versions stay: answers
    given to it keep their spot), or bring it back."""
    spot.archived_at = now() if archived else None
    if archived:
        for share in s.scalars(select(MySpotShare).where(MySpotShare.spot_id == spot.id)):
            s.delete(share)


def shared_classes(s: Session, spot: MySpot) -> list[str]:
    """The ids of the classes the spot is shared with."""
    return list(s.scalars(select(MySpotShare.class_id).where(MySpotShare.spot_id == spot.id)))


def share(s: Session, spot: MySpot, class_ids: list[str]) -> None:
    """Share the spot with exactly these classes of its owner's (others are ignored); [] makes it private."""
    mine = set(s.scalars(select(SchoolClass.id).where(SchoolClass.instructor_id == spot.owner_id)))
    wanted = {c for c in class_ids if c in mine} if spot.archived_at is None else set()
    for existing in s.scalars(select(MySpotShare).where(MySpotShare.spot_id == spot.id)):
        if existing.class_id in wanted:
            wanted.discard(existing.class_id)
        else:
            s.delete(existing)
    for class_id in sorted(wanted):
        s.add(MySpotShare(spot_id=spot.id, class_id=class_id))
    s.flush()


def shared_with(s: Session, account_id: int) -> list[tuple[MySpot, str]]:
    """The spots shared with the classes ``account_id`` is a member of, with the class's title,
    oldest shared first."""
    rows = s.execute(
        select(MySpot, SchoolClass.title)
        .join(MySpotShare, MySpotShare.spot_id == MySpot.id)
        .join(SchoolClass, SchoolClass.id == MySpotShare.class_id)
        .join(ClassMember, ClassMember.class_id == SchoolClass.id)
        .where(ClassMember.account_id == account_id, MySpot.archived_at.is_(None))
        .order_by(MySpotShare.created_at, MySpot.id)
    )
    seen: set[str] = set()
    out = []
    for spot, title in rows:
        if spot.id not in seen:
            seen.add(spot.id)
            out.append((spot, title))
    return out


def shared_with_class(s: Session, class_id: str) -> list[MySpot]:
    """The spots shared with one class (none archived), oldest shared first."""
    return list(s.scalars(
        select(MySpot).join(MySpotShare, MySpotShare.spot_id == MySpot.id)
        .where(MySpotShare.class_id == class_id, MySpot.archived_at.is_(None))
        .order_by(MySpotShare.created_at, MySpot.id)
    ))


def can_see(s: Session, spot_id: str, account_id: int | None) -> bool:
    """The owner, and a member of a class the spot is shared with."""
    if account_id is None:
        return False
    spot = s.get(MySpot, spot_id)
    if spot is None:
        return False
    if spot.owner_id == account_id:
        return True
    return spot.archived_at is None and s.scalar(
        select(func.count())
        .select_from(MySpotShare)
        .join(ClassMember, ClassMember.class_id == MySpotShare.class_id)
        .where(MySpotShare.spot_id == spot_id, ClassMember.account_id == account_id)
    ) > 0


def owner_of(s: Session, spot_id: str) -> int | None:
    return s.scalar(select(MySpot.owner_id).where(MySpot.id == spot_id))


# ------------------------------------------------------------------ hand-history uploads


def add_upload(s: Session, owner_id: int, *, mode: str, report: dict, spots: list[dict]) -> SpotUpload:
    """Keep an import's report and spots (``{"id", "title", "topics", "yaml"}``) until the owner keeps some."""
    upload = SpotUpload(id=new_id(), owner_id=owner_id, mode=mode, report=report, spots=spots, kept=None)
    s.add(upload)
    s.flush()
    return upload


def upload_of(s: Session, upload_id: str, owner_id: int) -> SpotUpload | None:
    return s.scalar(select(SpotUpload).where(SpotUpload.id == upload_id, SpotUpload.owner_id == owner_id))


def keep(s: Session, upload: SpotUpload, indexes: list[int]) -> tuple[list[MySpot], list[tuple[int, list[Located]]]]:
    """Save the upload's spots at ``indexes`` in My spots (each once, however often it is asked):
    the spots saved, and those the loader refused with why."""
    already = set(upload.kept or [])
    saved: list[MySpot] = []
    refused: list[tuple[int, list[Located]]] = []
    for index in sorted(set(indexes)):
        if not 0 <= index < len(upload.spots) or index in already:
            continue
        made = save_spot(s, upload.owner_id, upload.spots[index]["yaml"])
        if isinstance(made, list):
            refused.append((index, made))
        else:
            saved.append(made)
            already.add(index)
    upload.kept = sorted(already)
    s.flush()
    return saved, refused
