"""Links one area's pages make to another's: a puzzle skill's page, where studying goes on."""

from __future__ import annotations

from flask import url_for

from quizapp.web.navigation.lists import read_studied_list


def compute_skill_url(key: str) -> str:
    """The page of the skill ``key`` ("family/level")."""
    family, _, level = key.partition("/")
    return url_for("skills.show", family=family, level=level)


def compute_study_url(list_text: str | None) -> str:
    """Where studying goes on: the queue, or the list being studied (its carried text)."""
    if not list_text:
        return url_for("study.index")
    return url_for("study.index", list=read_studied_list(list_text)[1])
