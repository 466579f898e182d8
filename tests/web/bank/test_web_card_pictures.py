"""A card's code sample draws the chains it builds, each with a link to the explorer."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from picture_support import check_chain_pictures, explorer_links
from webtest_support import make_card

from quizapp.extensions import db
from quizapp.pictures import compute_sample_chains
from quizapp.services.bank_import import import_cards

SAMPLE = """\
import torch

x = torch.arange(12).view(3, 4)
y = x.t()                      # a view: strides swap
z = y.reshape(12)              # a copy: no strides fit
print(x.stride(), y.stride(), z.is_contiguous())
w = x[:, 1::2].expand(2, 3, 2)
"""


def test_a_card_page_draws_its_sample_chains(app, client):
    card = dataclasses.replace(make_card("sample-pictures"), code=SAMPLE)
    with app.app_context():
        import_cards(db.session, [card], datetime.now(UTC))
    page = client.get("/questions/sample-pictures").text
    chains = ["torch.arange(12).view(3, 4).t().reshape(12)",
              "torch.arange(12).view(3, 4)[:, 1::2].expand(2, 3, 2)"]
    assert compute_sample_chains(SAMPLE) == tuple(chains)
    assert explorer_links(page) == chains
    assert sum(check_chain_pictures(page, expr, f"sample-{n}-")
               for n, expr in enumerate(chains)) == 12 * 4 + (12 + 12 + 6 + 12)
    assert "copied from storage #0 (step 2)" in page  # reshape's copy, linked to the view
    assert page.count("pictures.js") == 1


def test_a_sample_without_chains_draws_nothing(app, client):
    with app.app_context():
        import_cards(db.session, [make_card("no-chains")], datetime.now(UTC))
    page = client.get("/questions/no-chains").text
    assert "Open in the explorer" not in page and 'class="pic"' not in page


def test_sample_chains_follow_names_and_skip_what_is_no_chain():
    assert compute_sample_chains("a = 1\nx = torch.zeros(2, 3)\ny = x.t()\nx = a + 1\nz = x.t()") \
        == ("torch.zeros(2, 3).t()",)
    assert compute_sample_chains("x = torch.arange(100)\ny = torch.arange(10)") == (
        "torch.arange(100)", "torch.arange(10)")
    assert compute_sample_chains("x = (") == () and compute_sample_chains(None) == ()
    assert compute_sample_chains("x = torch.arange(6)\ny = x.frobnicate()") == (
        "torch.arange(6)",)
