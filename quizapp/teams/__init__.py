"""The lead's dashboard of a team's track, computed from typed values: pure (no Flask, no database).

``rows`` gives one row per member (completion of each step, set scores, overdue steps, last
active) sortable by any column; ``heatmap`` the member x concept accuracy on assigned work and
its SVG; ``readiness`` FSRS's predicted recall of the track's items at a due date; ``export``
the CSV (one row per member and step, every cell formula-neutralised).
"""

from quizapp.teams.export import CSV_HEADER, compute_csv_rows, format_csv
from quizapp.teams.heatmap import (
    AccuracyGrid,
    Outcome,
    Tally,
    compute_accuracy,
    compute_bucket,
    render_heatmap_svg,
)
from quizapp.teams.readiness import (
    Readiness,
    compute_mean_readiness,
    compute_readiness,
    compute_recall,
    compute_recall_moment,
    read_curve,
)
from quizapp.teams.rows import (
    DEFAULT_SORT,
    DONE,
    DUE,
    GONE,
    OPEN,
    OVERDUE,
    PAGE_SIZE,
    SORT_COLUMNS,
    STEP_COLUMN,
    Member,
    MemberRow,
    Page,
    Sort,
    Step,
    StepResult,
    build_rows,
    canonicalize_sort,
    compute_common_dues,
    compute_page,
    sort_rows,
)

__all__ = [
    "CSV_HEADER", "DEFAULT_SORT", "DONE", "DUE", "GONE", "OPEN", "OVERDUE", "PAGE_SIZE", "SORT_COLUMNS", "STEP_COLUMN",
    "AccuracyGrid", "Member", "MemberRow", "Outcome", "Page", "Readiness", "Sort", "Step", "StepResult",
    "Tally", "build_rows", "canonicalize_sort", "compute_accuracy", "compute_bucket",
    "compute_common_dues", "compute_csv_rows", "compute_mean_readiness", "compute_page", "compute_readiness", "compute_recall", "compute_recall_moment",
    "format_csv", "read_curve", "render_heatmap_svg", "sort_rows",
]
