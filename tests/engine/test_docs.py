"""The worked example in docs/ENGINE.md runs as written."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "ENGINE.md"


def test_engine_doc_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks, "docs/ENGINE.md should carry a worked example"
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})
