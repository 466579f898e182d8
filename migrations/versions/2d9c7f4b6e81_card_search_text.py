"""Add card.search_text and card.search_title: a card's words as the question search reads them.

Revision ID: 2d9c7f4b6e81
Revises: 8b2f4d6e1a37
Create Date: 2026-11-30 16:45:00.000000

Search looks for each term of a query in everything a card shows (one
phrase in the title and question found nothing for "channels last" or "movedim"), at the start
of a word. Lowering and rewriting eight columns on every row of every search took ~0.5 s on a
5,000-card bank, so the text is kept once per card, written by `content load`
(services.store.search_text) and filled here for the cards already stored. The rule below is a frozen
copy of compute_search_text: the card's text and concept tags, lower case, apostrophes dropped,
the words (letters and digits) between single spaces, one space at each end.
"""
import re

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '2d9c7f4b6e81'
down_revision = '8b2f4d6e1a37'
branch_labels = None
depends_on = None


def _strings(value) -> list:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [text for item in value for text in _strings(item)] if isinstance(value, list) else []


def _spaced(text: str) -> str:
    words = re.findall(r"[^\W_]+", text.lower().translate(str.maketrans("", "", "'\u2019")))
    return f" {' '.join(words)} "


def _search_text(row, tags) -> str:
    parts = [row.title, row.question, row.basics, row.solid, row.code, *sorted(set(tags))]
    parts += [text for pair in row.go_deeper or []  # [level, text]: the text only
              for text in _strings(pair[1:] if isinstance(pair, list) else pair)]
    parts += _strings(row.follow_ups or []) + _strings(row.red_flags or [])
    return _spaced("\n".join(str(part) for part in parts))


def upgrade():
    op.add_column('card', sa.Column('search_text', sa.Text(), server_default='',
                                    nullable=False))
    op.add_column('card', sa.Column('search_title', sa.Text(), server_default='',
                                    nullable=False))
    item = sa.table('item', sa.column('id', sa.Integer), sa.column('title', sa.String))
    card = sa.table('card', sa.column('item_id', sa.Integer), sa.column('question', sa.Text),
                    sa.column('basics', sa.Text), sa.column('solid', sa.Text),
                    sa.column('code', sa.Text), sa.column('go_deeper', sa.JSON),
                    sa.column('follow_ups', sa.JSON), sa.column('red_flags', sa.JSON),
                    sa.column('search_text', sa.Text), sa.column('search_title', sa.Text))
    bind = op.get_bind()
    concept = sa.table('item_concept', sa.column('item_id', sa.Integer),
                       sa.column('concept', sa.String))
    tags: dict[int, list[str]] = {}
    for item_id, tag in bind.execute(sa.select(concept.c.item_id, concept.c.concept)):
        tags.setdefault(item_id, []).append(tag)
    rows = bind.execute(sa.select(card.c.item_id, item.c.title, card.c.question, card.c.basics,
                                  card.c.solid, card.c.code, card.c.go_deeper,
                                  card.c.follow_ups, card.c.red_flags)
                        .join(item, item.c.id == card.c.item_id)).all()
    for row in rows:
        bind.execute(card.update().where(card.c.item_id == row.item_id)
                     .values(search_text=_search_text(row, tags.get(row.item_id, [])),
                             search_title=_spaced(row.title)))


def downgrade():
    op.drop_column('card', 'search_title')
    op.drop_column('card', 'search_text')
