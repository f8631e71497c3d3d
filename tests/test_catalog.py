"""Every figure of the document's 4×2 tables and text, from the DuckDB views."""

from __future__ import annotations

import pytest

DOCUMENT_METHODS = ("unrestricted", "hybrid")


def distribution(catalog, method):
    return catalog.execute(
        "SELECT clicks, reached, average, percent FROM tricolore_click_distribution "
        "WHERE method = ? ORDER BY clicks NULLS LAST",
        [method],
    ).fetchall()


@pytest.mark.parametrize("method", DOCUMENT_METHODS)
def test_click_distribution_reproduces_the_document_digit_for_digit(catalog, figures, method):
    published = figures["tricolore_4x2"][method]
    rows = distribution(catalog, method)
    by_clicks = {clicks: (reached, average) for clicks, reached, average, _ in rows if clicks}
    assert {str(c): r for c, (r, _) in by_clicks.items()} == published["clicks_reached"]
    assert {str(c): a for c, (_, a) in by_clicks.items()} == published["average_column"]
    total = rows[-1]
    assert total[0] is None
    assert total[1] == published["total_reached"]
    assert total[2] == published["total_average"]


def test_document_percent_column(catalog):
    # The document prints the percent column as whole numbers, e.g. "734.711%" is 734.7 and 11 %.
    percents = {c: p for c, _, _, p in distribution(catalog, "unrestricted") if c}
    assert percents == {1: 0, 2: 1, 3: 3, 4: 11, 5: 30, 6: 37, 7: 15, 8: 2, 9: 0, 10: 0}
    percents = {c: p for c, _, _, p in distribution(catalog, "hybrid") if c}
    assert percents == {1: 0, 2: 0, 3: 1, 4: 2, 5: 7, 6: 16, 7: 27, 8: 27, 9: 15, 10: 4, 11: 0, 12: 0}


def test_bold_ranges_hold_94_and_85_percent(catalog):
    # "Average Clicks 5.6 94%" and "7.3 85%": the share of pairs in the bold rows (4-7, 6-9).
    def share(method, low, high):
        rows = distribution(catalog, method)
        total = rows[-1][1]
        return round(100 * sum(r for c, r, _, _ in rows if c and low <= c <= high) / total)

    assert share("unrestricted", 4, 7) == 94
    assert share("hybrid", 6, 9) == 85


def test_starts_considered_are_the_mirror_classes(catalog, figures):
    published = figures["tricolore_4x2"]
    counts = catalog.execute(
        "SELECT count(*) FILTER (WHERE mirror_canonical), "
        "count(*) FILTER (WHERE mirror_canonical AND notation = "
        "  reverse(split_part(notation, '.', 1)) || '.' || reverse(split_part(notation, '.', 2)))"
        " FROM tricolore_boards WHERE width = 4 AND height = 2"
    ).fetchone()
    assert counts[0] == published["starts_considered"]
    assert counts[1] == published["starts_mirror_symmetric"]
    assert counts[0] - counts[1] == published["starts_with_mirror_image"]


@pytest.mark.parametrize("method", DOCUMENT_METHODS)
def test_average_clicks_text(catalog, figures, method):
    (average,) = catalog.execute(
        "SELECT average_clicks FROM tricolore_click_summary WHERE method = ?", [method]
    ).fetchone()
    assert average == figures["tricolore_4x2"][method]["average_clicks_text"]


@pytest.mark.parametrize("method", ("unrestricted", "hybrid", "restricted"))
def test_maximum_clicks_ranges(catalog, figures, method):
    row = catalog.execute(
        "SELECT least_max_clicks, most_max_clicks FROM tricolore_max_clicks_range "
        "WHERE method = ?",
        [method],
    ).fetchone()
    assert list(row) == figures["tricolore_4x2"][method]["max_clicks_over_starts_range"]


@pytest.mark.parametrize("method", DOCUMENT_METHODS)
def test_reversed_table_of_targets(catalog, figures, method):
    published = figures["tricolore_4x2"]["target_summary"][method]
    for target, expected in published.items():
        average, maximum = catalog.execute(
            "SELECT average_document_starts, maximum FROM tricolore_target_summary "
            "WHERE method = ? AND target = ?",
            [method, target],
        ).fetchone()
        assert (average, maximum) == (expected["average"], expected["maximum"]), target


def test_reversed_table_averages_over_the_document_starts_not_all_starts(catalog):
    # The document compiled its reversed table over its 3321 mirror-canonical starts.
    # Over all 6561 starts the unrestricted average to WBWB.BWBW is 5.06, which would
    # print as 5.1, not the document's 5.0: the document's population is the right reading.
    exact, document = catalog.execute(
        "SELECT exact_average, average_document_starts FROM tricolore_target_summary "
        "WHERE method = 'unrestricted' AND target = 'WBWB.BWBW'"
    ).fetchone()
    assert round(exact, 2) == 5.06
    assert document == 5.0


def test_wbww_wbrb_needs_8_clicks_for_115_states_and_9_for_2(catalog, figures):
    rows = dict(
        catalog.execute(
            "SELECT clicks, targets FROM tricolore_start_distribution "
            "WHERE method = 'unrestricted' AND start = 'WBWW.WBRB'"
        ).fetchall()
    )
    example = figures["tricolore_4x2"]["examples_unrestricted"]["WBWW.WBRB"]
    assert rows[8] == example["states_needing_8"]
    assert rows[9] == example["states_needing_9"]
    assert max(rows) == 9


def test_wbww_wbrw_reaches_everything_within_7(catalog):
    (maximum,) = catalog.execute(
        "SELECT max_clicks FROM tricolore_start_summary "
        "WHERE method = 'unrestricted' AND start = 'WBWW.WBRW'"
    ).fetchone()
    assert maximum == 7


def test_all_red_to_all_white_takes_4_clicks(catalog, figures):
    (clicks,) = catalog.execute(
        "SELECT p.clicks FROM tricolore_pairs p "
        "JOIN tricolore_boards s ON s.width = p.width AND s.height = p.height AND s.board = p.start "
        "JOIN tricolore_boards t ON t.width = p.width AND t.height = p.height AND t.board = p.target "
        "WHERE p.method = 'unrestricted' AND s.notation = 'RRRR.RRRR' AND t.notation = 'WWWW.WWWW'"
    ).fetchone()
    assert clicks == figures["tricolore_4x2"]["examples_unrestricted"]["RRRR.RRRR_to_WWWW.WWWW_clicks"]


def test_unrestricted_reaches_the_80_bottom_blue_boards_the_others_cannot(catalog):
    rows = dict(
        catalog.execute(
            "SELECT method, count(*) FILTER (WHERE unreachable_starts = 0) "
            "FROM tricolore_target_summary WHERE target LIKE '%.BBBB' GROUP BY method"
        ).fetchall()
    )
    assert rows == {"unrestricted": 80, "hybrid": 0, "restricted": 0}


def test_restricted_reaches_everything_but_bottom_blue(catalog):
    # "any state other than xxxx.BBBB can be reached" under the restricted method.
    (never,) = catalog.execute(
        "SELECT count(*) FROM tricolore_target_summary WHERE method = 'restricted' "
        "AND unreachable_starts > 0 AND target NOT LIKE '%.BBBB'"
    ).fetchone()
    assert never == 0


def test_share_within_7_and_9_clicks(catalog):
    # "up to 10 clicks (or 7 in 98% of cases)"; hybrid "up to 12 clicks (or 9 in 96% of cases)"
    def at_most(method, clicks):
        return catalog.execute(
            "SELECT percent_at_most FROM tricolore_click_cumulative WHERE method = ? AND clicks = ?",
            [method, clicks],
        ).fetchone()[0]

    assert round(at_most("unrestricted", 7)) == 98
    assert round(at_most("hybrid", 9)) == 96
