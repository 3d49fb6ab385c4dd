"""The baseline of the page benchmark: a bare Starlette + Jinja page served by uvicorn.

``GET /page?bytes=N&step=S`` renders a page of about N bytes with the same stack as kifu's
server (Starlette, Jinja with autoescape, uvicorn) and nothing else: no store, no replay.
The bulk of the page (a list of rows, as a move list is) is rendered once per size and kept,
as a server that caches its move list would; each request renders the template around it
with the step asked for. So the baseline is the floor of serving that many bytes through
this stack, not the cost of rendering them. The benchmark serves it in its own process,
beside ``kifu serve``, and asks both for pages of the same size.

    python -m recorder.tools.bench.barepage --port 8001
"""

from __future__ import annotations

import argparse

from jinja2 import DictLoader, Environment, StrictUndefined
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

TEMPLATE = """<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>{{ title }}</title></head>
<body><h1>{{ title }} — {{ step }}</h1>
<ol>{{ rows }}</ol></body></html>
"""
ROWS = """{% for row in rows %}<li data-step="{{ row.n }}">{{ row.n }}. {{ row.text }}</li>
{% endfor %}"""
ROW_TEXT = "ギダンが美雅羅を攻撃、通常面で4点"  # a typical Japanese move line


def make_app() -> Starlette:
    env = Environment(loader=DictLoader({"page.html": TEMPLATE, "rows.html": ROWS}), autoescape=True,
                      undefined=StrictUndefined)
    template, rows_template = env.get_template("page.html"), env.get_template("rows.html")
    per_row = len(rows_template.render(rows=[{"n": 1000, "text": ROW_TEXT}]).encode("utf-8"))
    empty = len(template.render(title="棋譜", step=0, rows="").encode("utf-8"))
    bodies: dict[int, Markup] = {}

    def page(request: Request) -> HTMLResponse:
        size = int(request.query_params.get("bytes", "10000"))
        step = int(request.query_params.get("step", "0"))
        if size not in bodies:
            rows = [{"n": 1000 + i, "text": ROW_TEXT} for i in range(max(0, (size - empty) // per_row))]
            bodies[size] = Markup(rows_template.render(rows=rows))
        return HTMLResponse(template.render(title="棋譜", step=step, rows=bodies[size]))

    def ready(request: Request) -> HTMLResponse:
        return HTMLResponse("ok")

    return Starlette(routes=[Route("/page", page), Route("/", ready)])


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(make_app(), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
