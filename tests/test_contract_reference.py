"""The contract as one page: every hook a plug-in may define is in ``docs/contract.md``
once, with a docstring and an example, and the page is the one the code generates."""

from __future__ import annotations

from pathlib import Path

from builder.contract.hooks import _declarations, hook_documentation, hooks, reference

PAGE = Path(__file__).resolve().parent.parent / "docs" / "contract.md"


def test_the_page_is_current():
    assert PAGE.read_text() == reference(), (
        "docs/contract.md is stale: run `python -m builder.contract.hooks > docs/contract.md`")


def test_every_hook_is_on_the_page_once_with_a_docstring_and_an_example():
    page = PAGE.read_text()
    declared = [name for _, names in _declarations() for name in names]
    assert sorted(declared) == sorted(hooks())
    for cls, names in _declarations():
        for name in names:
            signature, doc = hook_documentation(cls, name)
            assert page.count(f"### `{name}`\n") == 1, name
            assert doc.strip(), f"{cls.__name__}.{name} has no docstring"
            examples = [line for line in doc.splitlines() if line.startswith("Example: ")]
            assert len(examples) == 1, f"{cls.__name__}.{name}: one line 'Example: ...'"


def test_every_field_of_a_table_and_of_pieces_is_on_the_page_with_its_meaning():
    """What an own search declares of a table, and the pieces pattern databases are
    derived from, are part of the contract a person reads."""
    import dataclasses

    from builder.contract.puzzle import Pieces, Table

    page = PAGE.read_text()
    for field in (*dataclasses.fields(Table), *dataclasses.fields(Pieces)):
        line = next((line for line in page.splitlines()
                     if line.startswith(f"- `{field.name}`: ")), None)
        assert line is not None, field.name
        assert len(line) > len(f"- `{field.name}`: ") + 10, f"{field.name} has no docstring"
