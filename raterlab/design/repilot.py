"""Starting a repeated pilot round in the warehouse (``staging.pilot_rounds``).

The next run of the design assets gives the pilot items to every annotator again in the new
round's packets (:func:`raterlab.design.assign` with the number of pilot rounds), and the
pilot gate then judges that round (:mod:`raterlab.agreement.pilot`).
"""

from __future__ import annotations

from datetime import UTC, datetime

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.design.rounds import PILOT_ROUND_COLUMNS, RepilotError, guide_sha256, next_pilot_round
from raterlab.protocol import Study
from raterlab.warehouse import read_table


def repeat_pilot(con: duckdb.DuckDBPyConnection, study: Study) -> dict:
    """Record the next pilot round of ``study`` after its latest pilot failed the gate;
    returns the new ``staging.pilot_rounds`` row. Raises :class:`RepilotError` when not
    allowed (see :func:`raterlab.design.rounds.next_pilot_round`)."""
    gate = read_table(con, "staging.pilot_gate", study.name)
    if gate is None or gate.empty:
        raise RepilotError(f"no pilot gate evaluated yet for {study.name}; ingest the pilot first")
    rounds = read_table(con, "staging.pilot_rounds", study.name)
    rounds = pd.DataFrame(columns=list(PILOT_ROUND_COLUMNS)) if rounds is None else rounds
    judged = gate.iloc[0].to_dict()
    row = next_pilot_round(study, rounds, judged, guide_sha256(study), datetime.now(UTC))
    table = pd.concat([rounds[list(PILOT_ROUND_COLUMNS)], pd.DataFrame([row])], ignore_index=True)
    warehouse.replace_study_rows(con, "staging.pilot_rounds", study.name, table)
    return row
