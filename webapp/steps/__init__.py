"""The job steps: what a worker runs for a user's action (an extraction's plan, pairs and derived
compositions, an upload's or a capture's import, an export, a metric's refresh, the gold checks, a capture's
renderings). A step is a face, like a view or a command: it calls its use cases as the user who started the job
(usecases/outcome.py `Actor.of_job`; the system actor for the checks that follow a change of gold), keeps its
job's progress, result and files, and commits in small transactions (tests/faces/test_one_call_per_step.py).
`STEPS` names each one and `FINAL_STEP` the one that ends each kind of job; create_app registers them with the
job system (jobs/step_table.py), which never imports them."""

from __future__ import annotations

from ..jobs.host import Host
from ..jobs.step_table import Step, StepTable, set_step_table
from .capture_step import capture_step
from .check_step import check_step
from .export_step import export_step
from .extraction_steps import RENDERINGS, derive_step, pairs_step, plan_step
from .refresh_step import refresh_step
from .rendering_step import renderings_step
from .upload_step import import_step

STEPS: dict[str, Step] = {
    "plan": plan_step,
    "pairs": pairs_step,
    "derive": derive_step,
    "import": import_step,
    "export": export_step,
    "refresh": refresh_step,
    "check": check_step,
    "capture": capture_step,
    RENDERINGS: renderings_step,
}
FINAL_STEP = {"extract": "derive", "upload": "derive", "capture": "derive"}
"""The step that runs once after every other chunk of the job is done."""


def register_steps(host: Host) -> None:
    """Register the steps with the job system of the app that runs the jobs (create_app)."""
    set_step_table(host, StepTable(STEPS, FINAL_STEP))
