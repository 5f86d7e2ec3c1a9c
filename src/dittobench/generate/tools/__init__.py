"""Tool-calling cases, one module per category family: build_tool_cases(root, total)."""
