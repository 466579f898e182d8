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
from quizapp.pictures.svg import (
    compute_index_rows,
    compute_storage_rows,
    describe_picture,
    render_svg,
)
from quizapp.pictures.trace import compute_chain_pictures

__all__ = ["MAX_CHAIN_COUNTED", "MAX_COUNTED", "MAX_DRAWN", "MAX_PICTURES", "GridCell", "StepLayout", "StepPicture", "StorageCell",
           "compute_chain_pictures", "compute_index_rows", "compute_step_picture",
           "compute_storage_rows", "describe_picture", "render_svg"]
