"""The mock tool endpoint's pure fixtures: determinism, the bearer rule, errors and chains."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from dittobench.catalog import CATALOG, MEMORY_TOOLS, TOOL_NAMES, get_tool, required_args
from dittobench.catalog.content import CONTENT_TOOLS
from dittobench.core.text import contains_phrase
from dittobench.mocktools import TRANSIENT_ERROR, execute
from dittobench.spec.dataset import ToolCase, ToolFixture
from dittobench.spec.wire import ToolExecResponse

SEED = 20240611
VERSION = "1.0"
SUBJECT = "Velmorix turbine"
UNIT = "kilowatts"
NEEDLE_FIGURE = "12,345"
DECOY_FIGURE = "48,211"
JOB_ID = "job-04213"
LINK = "https://brelomar.org/notes/kxpqrt"
NEEDLE = f"the {SUBJECT} reached {NEEDLE_FIGURE} {UNIT}"

CASE = ToolCase(
    id="tool-0001",
    category="web_result_usage",
    group="result_usage",
    prompt=f"How far did the {SUBJECT} get?",
    expected_tools=(),
    max_tool_calls=2,
    allow_extra_tools=False,
    unordered=False,
    expected_behavior="Reports the figure.",
)


def fixture(bearer: str = "", *, fail_first: bool = False, case_id: str = CASE.id) -> ToolFixture:
    return ToolFixture(
        case_id=case_id,
        subject=SUBJECT,
        unit=UNIT,
        decoy_figure=DECOY_FIGURE,
        job_id=JOB_ID,
        link=LINK,
        bearer=bearer,
        needle=NEEDLE if bearer else "",
        needle_figure=NEEDLE_FIGURE if bearer else "",
        fail_first=fail_first,
    )


CONTENT_ARGS: dict[str, dict[str, Any]] = {
    "search_web": {"queries": ["velmorix turbine output"]},
    "read_links": {"urls": [LINK]},
    "get_agent_job_status": {"job_id": JOB_ID},
    "execute_agent_workflow": {"goal": "find the latest turbine figures"},
    "list_agent_jobs": {},
}


def sample_args(name: str) -> dict[str, Any]:
    """Valid arguments for any catalog tool, built from its schema (no digits anywhere)."""
    if name in CONTENT_ARGS:
        return dict(CONTENT_ARGS[name])
    properties: dict[str, Any] = get_tool(name).parameters["properties"]
    out: dict[str, Any] = {}
    for arg, schema in properties.items():
        if "enum" in schema:
            out[arg] = schema["enum"][0]
        elif schema["type"] == "array":
            out[arg] = [f"sample {arg}"]
        elif schema["type"] == "integer":
            out[arg] = 2
        elif schema["type"] == "boolean":
            out[arg] = True
        else:
            out[arg] = f"sample {arg}"
    return out


def run(
    fx: ToolFixture,
    name: str,
    args: object,
    earlier: Sequence[str] = (),
    *,
    seed: int = SEED,
    version: str = VERSION,
) -> ToolExecResponse:
    return execute(seed, version, CASE, fx, name, args, earlier)


def served(fx: ToolFixture, name: str, args: object | None = None) -> str:
    response = run(fx, name, CONTENT_ARGS[name] if args is None else args)
    assert response.error is None, response
    assert response.result
    return response.result


def lacks_figure(text: str, figure: str) -> bool:
    return figure not in text and not contains_phrase(text, figure)


# Determinism.


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_same_inputs_give_same_output(name: str) -> None:
    fx = fixture("search_web", fail_first=True)
    args = sample_args(name)
    for earlier in ((), (name,)):
        first = run(fx, name, args, earlier)
        second = run(fx, name, dict(args), list(earlier))
        assert first == second


def test_wording_varies_with_args_seed_and_version() -> None:
    fx = fixture("read_links")
    findings = set()
    for word in "abcdefghijkl":
        text = served(fx, "search_web", {"queries": [f"query {word}"]})
        findings.add(next(line for line in text.splitlines() if DECOY_FIGURE in line))
    assert len(findings) > 1
    by_seed = {run(fx, "search_web", CONTENT_ARGS["search_web"], seed=s).result for s in range(12)}
    assert len(by_seed) > 1
    by_version = {run(fx, "set_theme", {"theme": "dark"}, version=v).result for v in "123456"}
    assert len(by_version) > 1


def test_image_url_follows_the_args() -> None:
    fx = fixture()
    cat = run(fx, "create_image", {"prompt": "a cat"}).result
    dog = run(fx, "create_image", {"prompt": "a dog"}).result
    assert cat != dog
    assert re.search(r"https://\S+/[0-9a-f]{16}\.png", cat)
    reordered = run(fx, "edit_image", {"instruction": "crop", "image_url": "u"})
    assert reordered == run(fx, "edit_image", {"image_url": "u", "instruction": "crop"})


def test_earlier_calls_do_not_change_served_text() -> None:
    fx = fixture("search_web")
    for name in CONTENT_TOOLS:
        assert run(fx, name, CONTENT_ARGS[name]) == run(fx, name, CONTENT_ARGS[name], (name, name))


# The bearer rule.


@pytest.mark.parametrize("bearer", sorted(CONTENT_TOOLS))
def test_needle_only_from_the_bearer(bearer: str) -> None:
    fx = fixture(bearer)
    for name in sorted(CONTENT_TOOLS):
        text = served(fx, name)
        if name == bearer:
            assert NEEDLE in text
        else:
            assert NEEDLE not in text
            assert lacks_figure(text, NEEDLE_FIGURE)
            assert DECOY_FIGURE in text and SUBJECT in text


def test_needle_only_from_the_bearer_across_seeds() -> None:
    fx = fixture("get_agent_job_status")
    for seed in range(40):
        for name in sorted(CONTENT_TOOLS):
            text = run(fx, name, CONTENT_ARGS[name], seed=seed).result
            assert (NEEDLE in text) == (name == "get_agent_job_status"), (seed, name)
            if name != "get_agent_job_status":
                assert lacks_figure(text, NEEDLE_FIGURE)


def test_without_a_bearer_every_content_tool_serves_the_decoy() -> None:
    fx = fixture()
    for name in sorted(CONTENT_TOOLS):
        assert DECOY_FIGURE in served(fx, name)


# Bench 3.0: the fixture carries both served sentences (``findings_from_pack``).

DATED_NEEDLE = f"As of May 9, 2026, the {SUBJECT} reached {NEEDLE_FIGURE} {UNIT}."
DATED_DECOY = f"As of March 2, 2026, the {SUBJECT} reached {DECOY_FIGURE} {UNIT}."
FRAME_WORDS = frozenset({"audited", "confirmed", "verified", "superseded", "preliminary", "stale"})


@pytest.mark.parametrize("bearer", sorted(CONTENT_TOOLS))
def test_a_fixture_with_its_own_sentences_is_served_as_it_stands(bearer: str) -> None:
    fx = replace(fixture(bearer), needle=DATED_NEEDLE, decoy=DATED_DECOY)
    for name in sorted(CONTENT_TOOLS):
        text = run(fx, name, CONTENT_ARGS[name], version="3.0").result
        if name == bearer:
            assert DATED_NEEDLE in text and lacks_figure(text, DECOY_FIGURE), (name, text)
        else:
            assert DATED_DECOY in text and lacks_figure(text, NEEDLE_FIGURE), (name, text)
        assert not FRAME_WORDS.intersection(text.lower().split()), (name, text)


def test_action_tools_serve_no_figures() -> None:
    fx = fixture("search_web")
    for name in TOOL_NAMES:
        if name in CONTENT_TOOLS or name in MEMORY_TOOLS:
            continue
        text = run(fx, name, sample_args(name)).result
        assert lacks_figure(text, NEEDLE_FIGURE) and lacks_figure(text, DECOY_FIGURE), name
        without_urls = re.sub(r"https://\S+", "", text.replace(JOB_ID, ""))
        assert not re.search(r"\d", without_urls), (name, text)


# Recovery: the first call of each content tool fails.


@pytest.mark.parametrize("name", sorted(CONTENT_TOOLS))
def test_fail_first_errors_once_per_content_tool(name: str) -> None:
    fx = fixture(name, fail_first=True)
    others = tuple(sorted(CONTENT_TOOLS - {name}))
    first = run(fx, name, CONTENT_ARGS[name], others)
    assert first == ToolExecResponse(result="", error=TRANSIENT_ERROR)
    retry = run(fx, name, CONTENT_ARGS[name], (*others, name))
    assert retry.error is None and NEEDLE in retry.result


def test_fail_first_spares_action_tools_and_cases_without_it() -> None:
    assert run(fixture(fail_first=True), "set_theme", {"theme": "dark"}).error is None
    assert run(fixture("search_web"), "search_web", CONTENT_ARGS["search_web"]).error is None


def test_transient_error_text() -> None:
    assert TRANSIENT_ERROR == "transient upstream error (503); retry"


# Chains: job ids and links.


def test_job_chain() -> None:
    fx = fixture("get_agent_job_status")
    started = run(fx, "execute_agent_job", {"task": "survey turbine reports"})
    assert started.error is None
    assert started.result == f"Started job {JOB_ID}; ask for its status with that id."
    job_id = re.search(r"job-\d+", started.result)
    assert job_id is not None
    status = run(fx, "get_agent_job_status", {"job_id": f"  {job_id.group()} "})
    assert status.error is None and NEEDLE in status.result
    wrong = run(fx, "get_agent_job_status", {"job_id": "job-99999"})
    assert wrong == ToolExecResponse(result="", error="no job with id job-99999")


def test_search_web_first_link_is_the_fixture_link() -> None:
    fx = fixture("read_links")
    for query in ("turbine", "velmorix output", "latest figures"):
        text = served(fx, "search_web", {"queries": [query]})
        links = re.findall(r"https://\S+", text)
        assert links[0] == LINK
        assert len(links) == 3 and len(set(links)) == 3
    one = served(fx, "search_web", {"queries": "turbine", "num_results": 1})
    assert re.findall(r"https://\S+", one) == [LINK]


def test_read_links_serves_the_needle_only_for_the_fixture_link() -> None:
    fx = fixture("read_links")
    assert NEEDLE in served(fx, "read_links", {"urls": [LINK]})
    assert NEEDLE in served(fx, "read_links", {"urls": f" {LINK} "})
    assert NEEDLE in served(fx, "read_links", {"urls": ["https://other.org/a", LINK]})
    other = served(fx, "read_links", {"urls": ["https://other.org/a"]})
    assert NEEDLE not in other and lacks_figure(other, NEEDLE_FIGURE)
    assert "could not load https://other.org/a" in other.lower()


def test_read_links_of_the_link_gives_the_decoy_when_not_bearer() -> None:
    text = served(fixture("search_web"), "read_links", {"urls": [LINK]})
    assert DECOY_FIGURE in text and lacks_figure(text, NEEDLE_FIGURE)


# Errors.


@pytest.mark.parametrize("name", sorted(MEMORY_TOOLS))
def test_memory_tools_are_not_served(name: str) -> None:
    response = run(fixture("search_web"), name, sample_args(name))
    assert response == ToolExecResponse(
        result="", error=f"tool not available via this endpoint: {name}"
    )


def test_unknown_tool() -> None:
    response = run(fixture(), "launch_rocket", {"target": "moon"})
    assert response == ToolExecResponse(result="", error="unknown tool: launch_rocket")


REQUIRED = [
    (name, arg) for name in TOOL_NAMES if name not in MEMORY_TOOLS for arg in required_args(name)
]


@pytest.mark.parametrize(("name", "arg"), REQUIRED)
def test_missing_or_empty_required_argument(name: str, arg: str) -> None:
    expected = ToolExecResponse(result="", error=f"missing required argument '{arg}' for {name}")
    args = sample_args(name)
    del args[arg]
    assert run(fixture(), name, args) == expected
    empties: tuple[object, ...] = ("", "   ", [], None)
    for empty in empties:
        assert run(fixture(), name, {**args, arg: empty}) == expected


def test_required_argument_count() -> None:
    assert len(REQUIRED) >= 30


@pytest.mark.parametrize("bad", [["dark"], "dark", 3, True, 1.5])
def test_non_object_args(bad: object) -> None:
    response = run(fixture(), "set_theme", bad)
    assert response.result == "" and response.error is not None
    assert "set_theme" in response.error and "JSON object" in response.error


def test_null_args_read_as_empty_object() -> None:
    assert run(fixture(), "list_automations", None).error is None
    missing = run(fixture(), "set_theme", None)
    assert missing.error == "missing required argument 'theme' for set_theme"


def test_args_without_canonical_form() -> None:
    response = run(fixture(), "set_theme", {"theme": "dark", "extra": 2**60})
    assert response.result == "" and response.error is not None


def test_fixture_of_another_case_is_refused() -> None:
    with pytest.raises(ValueError, match="tool-0002"):
        run(fixture(case_id="tool-0002"), "set_theme", {"theme": "dark"})


# Sweep.


def test_catalog_has_thirty_four_tools() -> None:
    assert len(CATALOG) == 34


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_every_catalog_tool_answers(name: str) -> None:
    response = run(fixture("list_agent_jobs"), name, sample_args(name))
    assert isinstance(response, ToolExecResponse)
    assert isinstance(response.result, str)
    if name in MEMORY_TOOLS:
        assert response.error is not None and response.result == ""
    else:
        assert response.error is None and response.result.strip(), response


def test_action_confirmations_are_tool_specific() -> None:
    fx = fixture()
    texts = {
        name: run(fx, name, sample_args(name)).result
        for name in TOOL_NAMES
        if name not in MEMORY_TOOLS and name not in CONTENT_TOOLS
    }
    assert "Done." not in texts.values()
    assert "sample theme" in texts["set_theme"]
    assert "sample remind_at" in texts["create_reminder"]
    assert "sample to" in texts["gmail_send"]
