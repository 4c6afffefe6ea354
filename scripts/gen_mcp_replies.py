"""Regenerate ``host_harness/mcp/replies.json``: the MCP server's first answers, from the SDK itself.

Run after changing a tool, a schema, the server's instructions or version, or the MCP SDK::

    .venv/bin/python scripts/gen_mcp_replies.json
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host_harness.mcp.prebuilt import OUT, file_text, sdk_replies

if __name__ == "__main__":
    OUT.write_text(file_text(sdk_replies()), encoding="utf-8")
    print(f"wrote {OUT}")
