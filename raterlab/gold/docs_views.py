"""Great Expectations' Data Docs page views, with their Jinja environment made once per process.

Each Data Docs build instantiates its views anew, and each of Great Expectations' views
(``DefaultJinjaView``) builds its own Jinja ``Environment``, so every build compiled the
same templates again (0.3-0.5 s of a build at 1,000 items on a 2-CPU Intel Xeon, 0.11-0.2 s
once compiled: ``benchmarks/README.md``, "End to end"). These views are Great Expectations'
own page views, given (by the Data Docs site that :mod:`raterlab.gold.contract` configures)
the environment the first instance of their class built: the same templates, filters and
pages, compiled once. The filters are bound to that first instance; they read nothing of it
but its template helpers, which hold no state of a build.

Imported by Great Expectations by its module name when it builds the Data Docs, never by
raterlab itself (Great Expectations is slow to import).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from great_expectations.render.view import DefaultJinjaIndexPageView, DefaultJinjaPageView

if TYPE_CHECKING:
    from jinja2 import Environment  # Great Expectations' template engine

_ENVIRONMENTS: dict[tuple[type, str | None, str | None], Environment] = {}


class _SharedEnvironment:
    """Mixin: the Jinja environment of the first view of the class with the same custom
    style and view folders, built by the Great Expectations view's ``__init__``."""

    env: Environment
    custom_styles_directory: str | None
    custom_views_directory: str | None

    def __init__(
        self, custom_styles_directory: str | None = None, custom_views_directory: str | None = None
    ) -> None:
        key = (type(self), custom_styles_directory, custom_views_directory)
        if key not in _ENVIRONMENTS:
            super().__init__(custom_styles_directory, custom_views_directory)  # type: ignore[call-arg]
            _ENVIRONMENTS[key] = self.env
            return
        self.custom_styles_directory = custom_styles_directory
        self.custom_views_directory = custom_views_directory
        self.env = _ENVIRONMENTS[key]


class PageView(_SharedEnvironment, DefaultJinjaPageView):
    """``DefaultJinjaPageView`` (a suite's or a validation's page) with a shared environment."""


class IndexPageView(_SharedEnvironment, DefaultJinjaIndexPageView):
    """``DefaultJinjaIndexPageView`` (the site's index) with a shared environment."""
