"""Re-running a notebook cell closes the sliders that its previous run built.

Two ways: an in-process IPython shell driven with cell ids (run in a
subprocess so that the shell does not leak into other tests), and a real
ipykernel receiving execute requests whose metadata carries ``cellId`` as
JupyterLab sends it. Both count the open widget models
(``ipywidgets.widgets.widget._instances``) after each run.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import ipywidgets as widgets
import matplotlib.pyplot as plt
import pytest

from mlrefined_lib.widgets import frames_slider

REPO = Path(__file__).resolve().parents[2]

SETUP = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfrom ipywidgets.widgets.widget import _instances\nfrom mlrefined_lib.widgets import frames_slider\n"
SLIDER = textwrap.dedent(
    """
    def frame(v):
        fig, ax = plt.subplots(figsize=(2, 2))
        ax.plot([0, 1], [0, v])
        return fig
    s = frames_slider(frame, [1, 2, 3], description="v", play=True)
    """
)
COUNT = "print(len(_instances))"


def open_models():
    from ipywidgets.widgets.widget import _instances

    return len(_instances)


def _figure(v):
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1], [0, v])
    return fig


def test_close_closes_every_owned_model():
    before = open_models()
    slider = frames_slider(_figure, [1, 2, 3], play=True)
    assert open_models() > before + 3 * 2  # frames and their layouts at least
    text = repr(slider)
    slider.close()
    assert open_models() == before
    assert repr(slider) == text  # the repr nbval compares does not depend on open models
    slider.close()  # closing twice is harmless
    assert open_models() == before


def test_no_tracking_outside_ipython():
    from IPython import get_ipython

    assert get_ipython() is None
    before = open_models()
    slider = frames_slider(_figure, [1, 2])
    assert open_models() > before  # nothing closed it
    slider.close()


SHELL_SCRIPT = SETUP + textwrap.dedent(
    f"""
    import json
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_cell({SETUP!r}).raise_error()
    counts = []
    for cell_id in ["a", "a", "a", "b", "a", None, None]:
        shell.run_cell({SLIDER!r}, cell_id=cell_id).raise_error()
        counts.append(len(_instances))
    print(json.dumps(counts))
    """
)


def test_rerun_in_ipython_shell_closes_old_sliders():
    env = dict(os.environ, PYTHONPATH=str(REPO), MPLBACKEND="Agg")
    run = subprocess.run([sys.executable, "-c", SHELL_SCRIPT], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert run.returncode == 0, run.stderr
    counts = json.loads(run.stdout.strip().splitlines()[-1])
    per_slider = counts[0]
    assert per_slider > 10
    # cell "a" re-run: still one slider open; cell "b" adds one; "a" again: two;
    # cells without an id are never closed.
    assert counts == [per_slider, per_slider, per_slider, 2 * per_slider, 2 * per_slider, 3 * per_slider, 4 * per_slider]


def test_rerun_in_a_real_kernel_closes_old_sliders():
    jupyter_client = pytest.importorskip("jupyter_client")
    manager, client = jupyter_client.manager.start_new_kernel(
        kernel_name="python3", env=dict(os.environ, PYTHONPATH=str(REPO), MPLBACKEND="Agg")
    )
    try:

        def execute(code, cell_id):
            msg = client.session.msg(
                "execute_request",
                {"code": code, "silent": False, "store_history": True, "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
                metadata={"cellId": cell_id},
            )
            client.shell_channel.send(msg)
            output = []
            while True:
                reply = client.get_iopub_msg(timeout=60)
                if reply["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
                    continue
                if reply["msg_type"] == "stream":
                    output.append(reply["content"]["text"])
                elif reply["msg_type"] == "error":
                    raise AssertionError("\n".join(reply["content"]["traceback"]))
                elif reply["msg_type"] == "status" and reply["content"]["execution_state"] == "idle":
                    return "".join(output)

        execute(SETUP, "setup")
        counts = [int(execute(SLIDER + COUNT, "slider-cell")) for _ in range(5)]
        assert counts[0] > 10
        assert counts == [counts[0]] * 5, counts
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
