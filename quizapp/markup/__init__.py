"""Text formats shared by the web pages and the exports: safe Markdown, code highlighting, CSV."""
