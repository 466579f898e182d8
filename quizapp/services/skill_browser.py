"""The puzzle skills a user can study: listed by level with their progress, and one by its key."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from quizapp import puzzles
from quizapp.content.limits import KEY_MAX
from quizapp.models import ItemSuspension, ReviewState, Skill
from quizapp.services.errors import NotFound
from quizapp.services.items import is_offered

# The seed of the example on a skill's page: every visitor sees the same one, and a review deals
# its own from a seed of its own (web.http.runtime.new_puzzle_seed), so this one gives nothing away.
EXAMPLE_SEED = 1
UNKNOWN_SKILL = "There is no puzzle skill with that name. The puzzle list has every one."


@dataclass(frozen=True)
class SkillProgress:
    """One skill as the list shows it; ``reps`` and ``due`` are None for a visitor or a skill
    the user has not rated yet."""

    skill: Skill
    reps: int | None = None
    due: datetime | None = None
    suspended: bool = False

    @property
    def concepts(self) -> list[str]:
        return sorted(link.concept for link in self.skill.concepts)


def list_skills(session: Session, user_id: int | None) -> list[SkillProgress]:
    """Every skill the running code can deal a puzzle for, in the order the queue introduces
    them (level by level), with the user's progress when ``user_id`` is given."""
    skills = [skill for skill in session.scalars(
        select(Skill).where(Skill.retired.is_(False)).order_by(Skill.new_order, Skill.id)
        .options(selectinload(Skill.concepts))) if is_offered(skill)]
    if user_id is None:
        return [SkillProgress(skill) for skill in skills]
    ids = [skill.id for skill in skills]
    states = {row.item_id: row for row in session.execute(
        select(ReviewState.item_id, ReviewState.reps, ReviewState.due)
        .where(ReviewState.user_id == user_id, ReviewState.item_id.in_(ids)))}
    suspended = set(session.scalars(select(ItemSuspension.item_id).where(
        ItemSuspension.user_id == user_id, ItemSuspension.item_id.in_(ids))))
    listed = []
    for skill in skills:
        state = states.get(skill.id)
        listed.append(SkillProgress(skill, state.reps if state else None,
                                    state.due if state else None, skill.id in suspended))
    return listed


def load_skill(session: Session, key: str) -> Skill:
    """A skill by its key ("family/level"); NotFound if there is none. A retired skill, or one
    the running code cannot deal, still opens (history links point at it):
    study_items.is_offered says whether it can be studied."""
    skill = None
    if 0 < len(key) <= KEY_MAX:  # longer is no key the bank can hold: no query
        skill = session.scalar(select(Skill).where(Skill.kind == "skill", Skill.key == key)
                               .options(selectinload(Skill.concepts)))
    if skill is None:
        raise NotFound(UNKNOWN_SKILL)
    return skill


def deal_example(skill: Skill) -> puzzles.Puzzle:
    """The puzzle the skill's page shows as an example (for a skill the queue offers)."""
    return puzzles.deal(skill.family, skill.level, EXAMPLE_SEED)
