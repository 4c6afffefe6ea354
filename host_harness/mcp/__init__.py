"""The MCP server: rs-learn's tools and resources for any agent that speaks the Model Context Protocol."""
