"""Pictures of memory: a chain step's storage strip and tensor grid, as a model and as SVG."""

from quizapp.pictures.model import (
    MAX_CHAIN_COUNTED,
    MAX_COUNTED,
    MAX_DRAWN,
    MAX_PICTURES,
    GridCell,
    StepLayout,
    StepPicture,
    StorageCell,
    compute_step_picture,
)
from quizapp.pictures.refused import (
    RefusedPicture,
    compute_dim_rows,
    compute_new_rows,
    describe_break,
    describe_refused,
    render_refused_svg,
)
from quizapp.pictures.samples import MAX_SAMPLE_CHAINS, compute_sample_chains
from quizapp.pictures.svg import (
    compute_index_rows,
    compute_storage_rows,
    describe_picture,
    render_svg,
)
from quizapp.pictures.trace import (
    compute_chain_pictures,
    compute_copy_pictures,
    compute_refused_picture,
)

__all__ = ["MAX_CHAIN_COUNTED", "MAX_COUNTED", "MAX_DRAWN", "MAX_PICTURES", "MAX_SAMPLE_CHAINS",
           "GridCell", "RefusedPicture", "StepLayout", "StepPicture", "StorageCell",
           "compute_chain_pictures", "compute_copy_pictures", "compute_dim_rows", "compute_index_rows",
           "compute_new_rows", "compute_refused_picture", "compute_sample_chains",
           "compute_step_picture", "compute_storage_rows", "describe_break", "describe_picture",
           "describe_refused", "render_refused_svg", "render_svg"]
