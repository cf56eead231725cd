#!/usr/bin/env python3
"""Skia's pictures of the string drawing test cases (Tests/SheenKitTests/StringDrawingSkiaTests.swift).

Each case lays out with its own code here, and draws with skia-python, what the Swift test draws
with SheenKit's NSString / NSAttributedString draw(at:) and draw(in:): DejaVu Sans and DejaVu Sans
Bold with the oracle's setup (../shared/oracle: FreeType, no hinting, anti-aliased, subpixel
positions, linear metrics), glyphs at hmtx advances plus the font's pair kerning, and what UIKit
and Core Text do with the attributes:

- `.kern` k adds k points after every glyph (the last one too), and counts when lines break,
  when they are measured and when they are aligned;
- the runs of an attributed string share a line's baseline, at the largest ascent of the fonts
  on the line below its top; a line is as tall as the largest ascent + descent + leading;
- lines wrap greedily at spaces; trailing spaces hang (they count neither in breaking nor in
  alignment); `.byTruncatingTail` keeps the longest start of a line that fits with "…" after it;
- alignment places each line within the rect (centre, right), or the left edge.

The PNGs go to Tests/References/strings/<case>.png; the test requires >= 35 dB PSNR.

Run: python3 Scripts/skia-string-references.py   (skia-python)
"""
import os

import skia

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/References/strings")
FONTS = {
    "regular": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
}
_MGR = skia.FontMgr.New_Custom_Empty()
_TYPEFACES = {}


def font(weight, size):
    if weight not in _TYPEFACES:
        _TYPEFACES[weight] = _MGR.makeFromFile(FONTS[weight])
    f = skia.Font(_TYPEFACES[weight], size)
    f.setSubpixel(True)
    f.setLinearMetrics(True)
    f.setHinting(skia.FontHinting.kNone)
    f.setEdging(skia.Font.Edging.kAntiAlias)
    return f


class Run:
    def __init__(self, text, weight="regular", size=13.0, color=(0, 0, 0, 1), kern=0.0):
        self.text, self.weight, self.size, self.color, self.kern = text, weight, size, color, kern
        self.font = font(weight, size)

    def metrics(self):
        m = self.font.getMetrics()
        return -m.fAscent, m.fDescent, m.fLeading


def shape(run, s):
    """Glyphs of s in run's font, their x positions and the advance (kerning added)."""
    f = run.font
    glyphs = list(f.textToGlyphs(s))
    if not glyphs:
        return [], [], 0.0
    widths = f.getWidths(glyphs)
    pairs = f.getTypeface().getKerningPairAdjustments(glyphs) if len(glyphs) > 1 else None
    k = f.getSize() / f.getTypeface().getUnitsPerEm()
    xs, x = [], 0.0
    for i, w in enumerate(widths):
        xs.append(x)
        x += w + run.kern
        if pairs and i < len(pairs):
            x += pairs[i] * k
    return glyphs, xs, x


def pieces(runs):
    """(run, text) pieces cut where the run changes and where spaces start or end."""
    out = []
    for r in runs:
        cur = ""
        for ch in r.text:
            if cur and (ch == " ") != (cur[-1] == " "):
                out.append((r, cur))
                cur = ""
            cur += ch
        if cur:
            out.append((r, cur))
    return out


def width(ps, trim=True):
    ps = list(ps)
    while trim and ps and ps[-1][1].startswith(" "):
        ps.pop()
    return sum(shape(r, s)[2] for r, s in ps)


def wrap(ps, limit):
    """Greedy: words are the pieces up to a space piece (inclusive)."""
    words, cur = [], []
    for p in ps:
        if cur and not p[1].startswith(" ") and cur[-1][1].startswith(" "):
            words.append(cur)
            cur = []
        cur.append(p)
    if cur:
        words.append(cur)
    lines, line = [], []
    for w in words:
        if not line or width(line, trim=False) + width(w) <= limit:
            line += w
        else:
            lines.append(line)
            line = list(w)
    lines.append(line)
    return lines


def truncate_tail(ps, limit):
    ps = list(ps)
    while ps and ps[-1][1].startswith(" "):
        ps.pop()
    if width(ps) <= limit:
        return ps
    # the ellipsis takes the style of what it follows
    kept, used = [], 0.0
    for r, s in ps:
        w = shape(r, s)[2]
        if used + w <= limit:
            kept.append((r, s))
            used += w
        else:
            break
    last = (kept[-1][0] if kept else ps[0][0])
    ell = shape(last, "\u2026")[2]
    out, used = [], 0.0
    for r, s in ps:
        w = shape(r, s)[2]
        if used + w <= limit - ell:
            out.append((r, s))
            used += w
            continue
        if not s.startswith(" "):
            for k in range(len(s) - 1, 0, -1):
                if used + shape(r, s[:k])[2] <= limit - ell:
                    out.append((r, s[:k]))
                    break
        break
    while out and out[-1][1].startswith(" "):
        out.pop()
    return out + [(out[-1][0] if out else last, "\u2026")]


def draw_lines(c, lines, x0, y0, box=None, align="left", clip=None):
    c.save()
    if clip is not None:
        c.clipRect(skia.Rect.MakeXYWH(*clip), skia.ClipOp.kIntersect, True)
    top = y0
    for line in lines:
        ms = [r.metrics() for r, _ in line] or [(0, 0, 0)]
        ascent = max(m[0] for m in ms)
        descent = max(m[1] for m in ms)
        leading = max(m[2] for m in ms)
        w = width(line)
        bw = box if box is not None else w
        dx = (bw - w) / 2 if align == "center" else (bw - w) if align == "right" else 0.0
        x = x0 + dx
        for r, s in line:
            glyphs, xs, adv = shape(r, s)
            if glyphs and not s.startswith(" "):
                paint = skia.Paint(Color=skia.Color4f(*r.color).toColor(), AntiAlias=True)
                for g, gx in zip(glyphs, xs):
                    path = r.font.getPath(g)
                    if path is not None:
                        path.offset(x + gx, top + ascent)
                        c.drawPath(path, paint)
            x += adv
        top += ascent + descent + leading
    c.restore()


def single(runs, x, y, c):
    draw_lines(c, [pieces(runs)], x, y)


GRAY = (0.33, 0.33, 0.33, 1)
GREEN = (0.1, 0.6, 0.25, 1)
BLUE = (0.1, 0.3, 0.85, 1)
RED = (0.8, 0.15, 0.1, 1)


def case_plain(c):
    single([Run("Hello, Sheen! 0123 The quick", size=15)], 8, 10, c)
    single([Run("Bold and blue", "bold", 20, BLUE)], 8, 40, c)


def case_runs(c):
    single([Run("Revenue ", size=13, color=GRAY), Run("+12.5%", "bold", 20, GREEN),
            Run(" this quarter", size=11, color=BLUE)], 6, 12, c)
    single([Run("Red ", "bold", 14, RED), Run("and small ", size=9), Run("BIG", "bold", 24, BLUE)], 6, 52, c)


def case_kern(c):
    single([Run("Tracking", size=16, kern=3)], 8, 8, c)
    single([Run("KERNED CAPS", "bold", 12, GRAY, kern=1.5)], 8, 40, c)
    single([Run("Tight", size=16, kern=-1), Run(" mixed", size=16, color=BLUE, kern=2)], 8, 66, c)


KERNWRAP = "the quick brown fox jumps over the lazy dog again"


def case_kernwrap(c):
    runs = [Run(KERNWRAP, size=13, kern=1.2)]
    lines = wrap(pieces(runs), 196 + 1e-6)
    draw_lines(c, lines, 8, 8, box=196, clip=(8, 8, 196, 100))
    return len(lines), len(wrap(pieces([Run(KERNWRAP, size=13)]), 196 + 1e-6))


def case_align(c):
    runs = [Run("Centred text that wraps onto a second line", size=13)]
    draw_lines(c, wrap(pieces(runs), 180 + 1e-6), 10, 6, box=180, align="center", clip=(10, 6, 180, 50))
    runs = [Run("Right aligned, kerned", size=12, color=BLUE, kern=1)]
    draw_lines(c, wrap(pieces(runs), 180 + 1e-6), 10, 62, box=180, align="right", clip=(10, 62, 180, 40))


def case_runswrap(c):
    runs = [Run("Attributed ", "bold", 15, RED), Run("strings wrap across their runs, ", size=12),
            Run("keeping each colour", size=12, color=BLUE), Run(" and size.", "bold", 12, GREEN)]
    draw_lines(c, wrap(pieces(runs), 200 + 1e-6), 10, 6, box=200, align="center", clip=(10, 6, 200, 100))


def case_truncate(c):
    runs = [Run("A line far too long to fit in the box", size=13)]
    draw_lines(c, [truncate_tail(pieces(runs), 150 + 1e-6)], 8, 8, clip=(8, 8, 150, 20))
    runs = [Run("Kerned ", "bold", 13, RED, kern=1.5), Run("and truncated at its tail", size=13, kern=1.5)]
    draw_lines(c, [truncate_tail(pieces(runs), 170 + 1e-6)], 8, 40, clip=(8, 40, 170, 20))


CASES = {
    "plain": (case_plain, 240, 72),
    "runs": (case_runs, 240, 90),
    "kern": (case_kern, 240, 96),
    "kernwrap": (case_kernwrap, 212, 116),
    "align": (case_align, 200, 110),
    "runswrap": (case_runswrap, 220, 112),
    "truncate": (case_truncate, 200, 70),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, (draw, w, h) in CASES.items():
        scale = 2 if name == "runs" else 1
        surface = skia.Surface(w * scale, h * scale)
        c = surface.getCanvas()
        c.clear(skia.ColorWHITE)
        c.scale(scale, scale)
        info = draw(c)
        surface.makeImageSnapshot().save(os.path.join(OUT, f"{name}.png"), skia.kPNG)
        print(name, info if info is not None else "")


if __name__ == "__main__":
    main()
