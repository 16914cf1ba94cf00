"""The JupyterLab workbench: bokeh hex maps and ipywidgets panels over the kernel.

``Workbench(state_or_game)`` is the one object a notebook needs; see docs/ui.md.
"""

from workbench.ui.mapview import MapView, export_html
from workbench.ui.workbench import Workbench

__all__ = ["MapView", "Workbench", "export_html"]
