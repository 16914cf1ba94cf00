"""The JupyterLab workbench: bokeh hex maps and ipywidgets panels over the kernel."""

from workbench.ui.mapview import MapView, export_html

__all__ = ["MapView", "export_html"]
