"""Rendering shared by the areas: template filters, Markdown and code, cached card fragments,
versioned static assets and the worker warm-up."""
