"""No import circle anywhere: the module graph of ``dittobench``, ``dittobench_baseline`` and
``dittobench_adapters`` (built by grimp, which also sees imports made inside functions and under
``TYPE_CHECKING``) has no cycle between modules.

Nothing is ignored: a package's ``__init__`` importing its own submodules would count too (none
does so in a cycle today). A circle hidden behind a deferred import still makes two modules that
cannot be understood, tested or layered one without the other; move what they share into a
module both import instead.
"""

from __future__ import annotations

import grimp

PACKAGES = ("dittobench", "dittobench_baseline", "dittobench_adapters")


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (and modules importing
    themselves), each sorted; Tarjan's algorithm, iterative so no depth limit applies."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(edges.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, ()):
                    found.append(sorted(component))
    return found


def import_graph() -> dict[str, set[str]]:
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def test_the_cycle_finder_finds_a_circle_and_only_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert sorted(cycles(edges)) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_module_is_part_of_an_import_circle() -> None:
    edges = import_graph()
    assert "dittobench.drive.runs" in edges  # the graph covers the packages
    circles = cycles(edges)
    described = [
        " ; ".join(f"{a} -> {b}" for a in circle for b in sorted(edges[a] & set(circle)))
        for circle in circles
    ]
    assert not circles, "import circles:\n" + "\n".join(described)
