"""What Lighthouse asks of every page besides accessibility, checked without a browser: a
meta description on each page (in the page's language), and text compression (gzip) for a
client that accepts it, never for one that does not."""

from __future__ import annotations

import re

import httpx
import pytest

PAGES = ["/matches", "/matches/toy-1", "/matches/gen-gandice/record", "/matches/gen-mushijingi/overlay",
         "/events", "/events/generated", "/stats", "/matches/no-such-match"]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_page_has_a_meta_description(readonly, path, lang):
    with readonly.client() as c:
        r = c.get(path, params={"lang": lang})
    found = re.findall(r'<meta name="description" content="([^"]*)">', r.text)
    assert len(found) == 1 and len(found[0].strip()) >= 4, (path, found)


def test_pages_and_api_are_gzipped_when_asked(readonly):
    with httpx.Client(base_url=readonly.url, timeout=10) as c:  # httpx decodes gzip itself
        page = c.get("/matches/gen-variants-war", headers={"Accept-Encoding": "gzip"})
        plain = c.get("/matches/gen-variants-war", headers={"Accept-Encoding": "identity"})
        api = c.get("/api/matches/gen-variants-war/lines", headers={"Accept-Encoding": "gzip"})
    assert page.headers.get("content-encoding") == "gzip" and "<html" in page.text
    assert int(page.headers["content-length"]) * 3 < len(page.content)  # what crossed the wire
    assert "content-encoding" not in plain.headers and "<html" in plain.text
    assert api.headers.get("content-encoding") == "gzip" and api.json()["lines"]
    assert "content-security-policy" in {k.lower() for k in page.headers}  # the security headers survive


def test_an_event_stream_is_never_compressed():
    """Live follow's text/event-stream must flow line by line: the middleware leaves it alone."""
    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from recorder.web.server import create_app

    app = create_app(":memory:")
    gz = next(m for m in app.user_middleware if m.cls.__name__ == "GZipMiddleware")

    async def events(request):
        async def gen():
            for i in range(50):
                yield f"data: {'x' * 100} {i}\n\n"
        return StreamingResponse(gen(), media_type="text/event-stream")

    probe = Starlette(routes=[Route("/s", events)])
    probe.add_middleware(gz.cls, *gz.args, **gz.kwargs)
    with TestClient(probe) as c:
        r = c.get("/s", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in r.headers and r.text.count("data:") == 50
