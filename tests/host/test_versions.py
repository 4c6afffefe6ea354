"""Every dependency is installed inside the range the suite was run on (pyproject.toml), named when not."""

from __future__ import annotations

import importlib.metadata

import pytest

from host_harness import versions


def test_every_installed_dependency_is_inside_its_tested_range():
    # the runtime dependencies and the dev extra the suite runs with; a package outside is named
    assert versions.outside(extras=("dev", "postgresql")) == []


def test_the_installed_wasmtime_py_is_the_tested_one():
    """The component's boundary runs on stock wasmtime-py (no patch): only the tested series is trusted."""
    (wasmtime,) = [r for r in versions.declared() if r.name == "wasmtime"]
    installed = importlib.metadata.version("wasmtime")
    assert wasmtime.admits(installed), f"wasmtime-py {installed} is outside the tested range {wasmtime.range}"
    assert not wasmtime.admits("50.0.1") and not wasmtime.admits("52.0.0")


def test_every_dependency_has_an_upper_bound():
    unbounded = [r.name for r in versions.declared()
                 if not any(op in ("<", "<=", "==") for op, _ in r.specifiers)]
    assert unbounded == []


@pytest.mark.parametrize(("line", "version", "inside"), [
    ("wasmtime==50.0.1", "50.0.1", True),
    ("wasmtime==50.0.1", "51.0.0", False),
    ("wasmtime<52,>=51", "52.0.0", False),
    ("wasmtime<52,>=51", "51.0.0", True),
    ("numpy<2.5,>=2.4", "2.4.6", True),
    ("numpy<2.5,>=2.4", "2.5.0", False),
    ("numpy<2.5,>=2.4", "2.3.9", False),
    ('psycopg[binary]<3.4,>=3.3; extra == "dev"', "3.3.9", True),
    ("wasmtime<52,>=51", "51.0.0rc1", True),
])
def test_a_range_admits_what_it_says(line, version, inside):
    assert versions.parse(line).admits(version) is inside


def test_the_extra_is_read_from_the_marker():
    assert versions.parse('pytest<9.3,>=9.2; extra == "dev"').extra == "dev"
    assert versions.parse("click<8.6,>=8.5").extra is None


def test_a_form_it_cannot_read_is_refused_not_guessed():
    with pytest.raises(ValueError, match="does not read"):
        versions.parse("numpy~=2.4")
