"""The features installed on a ``TableService``, found by their service's type.

``TableService`` knows no feature: each feature (``bot.features.contract.Feature``) builds
its own service over the table service and plugs it into the service's seams — a kind of
table (``TableService.register``), the marks kept through ``/ddz forget``
(``Forgetting.add_step``) or a refusal of it (``Forgetting.add_check``), a shutdown step
(``TableService.closing``). What they built is kept here, by name and by type, for the
adapters (cogs/context.py ``CogContext.feature``): the core never names one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeVar

T = TypeVar("T")


class Features:
    """The services of the installed features (``installed``: by feature name, in the
    order of the ``FEATURES`` list, bot/features/installed.py)."""

    def __init__(self, installed: Mapping[str, object]) -> None:
        self.installed = dict(installed)

    def get(self, kind: type[T]) -> T:
        """The installed service of type ``kind``; KeyError when no feature built one."""
        for service in self.installed.values():
            if isinstance(service, kind):
                return service
        raise KeyError(kind.__name__)

    def __iter__(self) -> Iterator[str]:
        return iter(self.installed)
