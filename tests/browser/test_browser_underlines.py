"""Links in chromium: the underline runs below the letters, so an underscore in a linked name
(``memory_format``, ``torch.from_numpy``) still shows instead of merging into the underline."""

from __future__ import annotations

import base64

import pytest

pytestmark = pytest.mark.browser

# The rows of pixels where the two screenshots differ (the underline), and the rows holding
# glyph ink in the one without the underline: text is the blue accent, the backgrounds grey.
ROWS_JS = """async ([withLine, withoutLine]) => {
  const pixels = async (png) => {
    const image = new Image();
    image.src = 'data:image/png;base64,' + png;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height);
  };
  const [lined, bare] = [await pixels(withLine), await pixels(withoutLine)];
  const underline = [], ink = [];
  for (let y = 0; y < bare.height; y++) {
    let differs = false, inked = false;
    for (let x = 0; x < bare.width; x++) {
      const i = (y * bare.width + x) * 4;
      differs ||= [0, 1, 2].some((c) => Math.abs(lined.data[i + c] - bare.data[i + c]) > 24);
      inked ||= bare.data[i + 2] - bare.data[i] > 40;
    }
    if (differs) underline.push(y);
    if (inked) ink.push(y);
  }
  return {underline, ink};
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_links_underline_does_not_hide_the_underscores_in_it(browser, live_server, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server['url']}/explorer")
        link = page.locator("main li a", has_text="memory_format=torch.channels_last")
        box = link.bounding_box()
        clip = {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"] + 8}
        lined = page.screenshot(clip=clip)
        # Through the CSSOM, which the page's Content-Security-Policy allows.
        link.evaluate("(a) => { a.style.textDecorationLine = 'none'; }")
        bare = page.screenshot(clip=clip)
        rows = page.evaluate(ROWS_JS, [base64.b64encode(png).decode() for png in (lined, bare)])
    finally:
        context.close()
    assert rows["underline"] and rows["ink"], rows  # both were seen
    crossed = sorted(set(rows["underline"]) & set(rows["ink"]))
    assert crossed == [], f"the underline runs through the letters' rows {crossed}: {rows}"
