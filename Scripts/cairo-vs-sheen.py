#!/usr/bin/env python3
"""Warm render time of scene files, Sheen against cairo drawing the same scene without shadows.

For each scene file, cairo (pycairo) draws it once into a cairo.RecordingSurface (backgrounds,
rounded clips, gradients, masks, borders, text with cairo's toy font API, group opacity and
transforms, but no shadows), and each timed frame replays that recording onto a 1920x1080 image
surface: no Python runs per frame but the replay call. Sheen renders the whole scene, shadows
included, with `sheen render SCENE --repeat N` (one thread).

How the ratio is made robust to a busy machine (both sides measured the same way):
- a run is N warm frames in one go, summarised by their median (Sheen's first frame, which makes
  its shadows, is one of N; cairo's 3 warm-up frames are left out);
- a round runs Sheen then cairo on the scene (the next round cairo first, and so on: ABBA order,
  so neither side always runs in the other's wake), for --rounds rounds (default 9), rounds of
  all scenes interleaved;
- each side's figure is the least of its run medians (a busy stretch only ever adds time, so the
  least is the run that was least disturbed), and the ratio is Sheen's over cairo's: what the
  target (--target, 0.5) is checked against;
- for reference the table also gives the median over rounds of each round's own ratio (the two
  runs of a round are seconds apart, so a slow stretch of the machine slows both) and its range.

usage: cairo-vs-sheen.py SHEEN SCENE.json... [--rounds 9] [--repeat 30] [--target 0.5]
       cairo-vs-sheen.py --self-test   (checks the summary arithmetic; needs no cairo)
Prints a table (Markdown) and exits 1 if any ratio is over the target.
"""
import argparse
import json
import math
import re
import subprocess
import sys
import time

cairo = None  # imported by main (the self-test needs no cairo)


def color(c):
    if c is None:
        return None
    c = c.lstrip("#")
    r, g, b = (int(c[i : i + 2], 16) / 255 for i in (0, 2, 4))
    a = int(c[6:8], 16) / 255 if len(c) == 8 else 1.0
    return (r, g, b, a)


def rounded(ctx, x, y, w, h, r):
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        ctx.rectangle(x, y, w, h)
        return
    ctx.new_sub_path()
    ctx.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    ctx.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    ctx.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    ctx.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    ctx.close_path()


def path(ctx, p):
    if isinstance(p, dict):
        x, y, w, h = p["roundedRect"]
        rounded(ctx, x, y, w, h, p.get("cornerRadius", 0))
        return
    raise SystemExit("cairo-vs-sheen: only rounded-rect paths are drawn here")


def layer_matrix(L):
    x, y, w, h = L["frame"]
    ax, ay = L.get("anchorPoint", [0.5, 0.5])
    t = L.get("transform") or {}
    s = t.get("scale", 1)
    sx, sy = (s, s) if not isinstance(s, list) else s
    tx, ty = t.get("translation", [0, 0])
    m = cairo.Matrix()
    m = m.multiply(cairo.Matrix(x0=-ax * w, y0=-ay * h))
    m = m.multiply(cairo.Matrix(xx=sx, yy=sy))
    m = m.multiply(cairo.Matrix.init_rotate(t.get("rotation", 0)))
    m = m.multiply(cairo.Matrix(x0=x + ax * w + tx, y0=y + ay * h + ty))
    return m


def draw_layer(ctx, L):
    if L.get("hidden") or L.get("opacity", 1) <= 0:
        return
    x, y, w, h = L["frame"]
    ctx.save()
    ctx.transform(layer_matrix(L))
    r = L.get("cornerRadius", 0)
    opacity = L.get("opacity", 1)
    grouped = opacity < 1 or L.get("mask") is not None
    if grouped:
        ctx.push_group()
    if L.get("masksToBounds"):
        rounded(ctx, 0, 0, w, h, r)
        ctx.clip()
    bg = color(L.get("backgroundColor"))
    if bg:
        ctx.set_source_rgba(*bg)
        rounded(ctx, 0, 0, w, h, r)
        ctx.fill()
    kind = L.get("type")
    if kind == "gradient":
        sp = L.get("startPoint", [0.5, 0])
        ep = L.get("endPoint", [0.5, 1])
        g = cairo.LinearGradient(sp[0] * w, sp[1] * h, ep[0] * w, ep[1] * h)
        cs = L["colors"]
        for i, c in enumerate(cs):
            g.add_color_stop_rgba(i / (len(cs) - 1), *color(c))
        ctx.set_source(g)
        rounded(ctx, 0, 0, w, h, r)
        ctx.fill()
    elif kind == "shape":
        path(ctx, L["path"])
        fill = color(L.get("fillColor", "#000000"))
        stroke = color(L.get("strokeColor"))
        if fill:
            ctx.set_source_rgba(*fill)
            ctx.fill_preserve()
        if stroke and L.get("lineWidth", 1) > 0:
            ctx.set_source_rgba(*stroke)
            ctx.set_line_width(L.get("lineWidth", 1))
            ctx.stroke_preserve()
        ctx.new_path()
    elif kind == "text":
        ctx.save()
        ctx.rectangle(0, 0, w, h)
        ctx.clip()
        bold = L.get("fontWeight", "regular") in ("semibold", "bold", "heavy", "black")
        ctx.select_font_face(
            "DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        ctx.set_font_size(L.get("fontSize", 17))
        ctx.set_source_rgba(*color(L.get("foregroundColor", "#000000")))
        asc = ctx.font_extents()[0]
        s = L.get("string", "")
        tx = 0
        if L.get("alignmentMode") == "center":
            tx = (w - ctx.text_extents(s).x_advance) / 2
        ctx.move_to(tx, asc)
        ctx.show_text(s)
        ctx.restore()
    for sub in L.get("sublayers", []):
        draw_layer(ctx, sub)
    if L.get("borderWidth", 0) > 0:
        bc = color(L.get("borderColor", "#000000"))
        if bc:
            bw = L["borderWidth"]
            ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
            rounded(ctx, 0, 0, w, h, r)
            rounded(ctx, bw, bw, w - 2 * bw, h - 2 * bw, max(0, r - bw))
            ctx.set_source_rgba(*bc)
            ctx.fill()
            ctx.set_fill_rule(cairo.FILL_RULE_WINDING)
    if grouped:
        pattern = ctx.pop_group()
        if L.get("mask") is not None:
            ctx.push_group()
            draw_layer(ctx, L["mask"])
            mask = ctx.pop_group()
            ctx.push_group()
            ctx.set_source(pattern)
            ctx.mask(mask)
            pattern = ctx.pop_group()
        ctx.set_source(pattern)
        ctx.paint_with_alpha(opacity)
    ctx.restore()


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


class Recording:
    """A scene drawn once into a cairo.RecordingSurface, replayed onto an image surface."""

    def __init__(self, scene):
        W, H = int(scene["width"]), int(scene["height"])
        self.rec = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, cairo.Rectangle(0, 0, W, H))
        ctx = cairo.Context(self.rec)
        for L in scene["layers"]:
            draw_layer(ctx, L)
        del ctx
        self.target = cairo.ImageSurface(cairo.FORMAT_ARGB32, W, H)
        self.bg = color(scene.get("background")) or (0, 0, 0, 0)
        self.out = cairo.Context(self.target)

    def run_ms(self, repeat):
        """The median of `repeat` replays (after 3 not counted)."""
        out = self.out
        times = []
        for _ in range(repeat + 3):
            t0 = time.perf_counter()
            out.set_operator(cairo.OPERATOR_SOURCE)
            out.set_source_rgba(*self.bg)
            out.paint()
            out.set_operator(cairo.OPERATOR_OVER)
            out.set_source_surface(self.rec, 0, 0)
            out.paint()
            self.target.flush()
            times.append((time.perf_counter() - t0) * 1000)
        return median(times[3:])


def sheen_ms(sheen, path, repeat):
    """The median of `repeat` frames of `sheen render` (its own figure)."""
    out = subprocess.run([sheen, "render", path, "-o", "/dev/null", "--repeat", str(repeat)],
                         capture_output=True, text=True)
    m = re.search(r"frame_ms median=([0-9.]+)", out.stdout + out.stderr)
    if not m:
        raise SystemExit(f"cairo-vs-sheen: sheen render {path} failed: {out.stderr.strip()}")
    return float(m.group(1))


def summarise(pairs):
    """Per scene, from its rounds' (Sheen median, cairo median) pairs: each side's least median,
    the ratio of those, and the median, least and greatest of the rounds' own ratios."""
    sheen = min(s for s, _ in pairs)
    cairo_best = min(c for _, c in pairs)
    per_round = [s / c for s, c in pairs]
    return {
        "sheen": sheen,
        "cairo": cairo_best,
        "ratio": sheen / cairo_best,
        "round_median": median(per_round),
        "round_min": min(per_round),
        "round_max": max(per_round),
    }


def self_test():
    """Checks `summarise` and `median` on made-up rounds (a failed check exits 1)."""
    failures = []

    def check(name, got, want):
        if abs(got - want) > 1e-9:
            failures.append(f"{name}: {got} != {want}")

    check("median odd", median([3, 1, 2]), 2)
    check("median even", median([4, 1, 3, 2]), 2.5)
    # A quiet machine: Sheen 2 ms, cairo 5 ms every round.
    s = summarise([(2.0, 5.0)] * 5)
    check("quiet ratio", s["ratio"], 0.4)
    check("quiet round median", s["round_median"], 0.4)
    # One noisy stretch slows Sheen's runs of two rounds and cairo's of another: the least of
    # each side's medians, and the median of the rounds' ratios, are the quiet ones.
    s = summarise([(2.0, 5.0), (4.5, 5.1), (2.1, 5.0), (2.0, 9.0), (4.0, 5.0), (2.0, 5.2)])
    check("noisy ratio", s["ratio"], 0.4)
    check("noisy round median", s["round_median"], (2.0 / 5.0 + 2.1 / 5.0) / 2)
    check("noisy round range", s["round_max"], 4.5 / 5.1)
    # Both sides are the least run, not the run of one round: a ratio is never made of one side's
    # lucky run against the other's unlucky one.
    s = summarise([(3.0, 5.0), (2.0, 8.0)])
    check("independent minima", s["ratio"], 2.0 / 5.0)
    if failures:
        print("cairo-vs-sheen self-test failed:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("cairo-vs-sheen self-test: ok")


def main():
    global cairo
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("sheen")
    ap.add_argument("scenes", nargs="+")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--runs", type=int, help="the same as --rounds (older name)")
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--target", type=float, default=0.5)
    ap.add_argument("--png", help="write cairo's picture of each scene next to this prefix")
    a = ap.parse_args()
    rounds = a.runs if a.runs else a.rounds
    if rounds < 1 or a.repeat < 1:
        raise SystemExit("cairo-vs-sheen: --rounds and --repeat must be at least 1")
    import cairo as cairo_module

    cairo = cairo_module
    scenes = [(p, json.load(open(p))) for p in a.scenes]
    recordings = [Recording(scene) for _, scene in scenes]
    pairs = [[] for _ in scenes]
    # Rounds of all scenes in turn; within a round, Sheen first on even rounds and cairo first
    # on odd ones.
    for r in range(rounds):
        for k, (p, _) in enumerate(scenes):
            if r % 2 == 0:
                s = sheen_ms(a.sheen, p, a.repeat)
                c = recordings[k].run_ms(a.repeat)
            else:
                c = recordings[k].run_ms(a.repeat)
                s = sheen_ms(a.sheen, p, a.repeat)
            pairs[k].append((s, c))
    print(f"{rounds} interleaved rounds of {a.repeat} frames a side; each side's least run median, and the"
          " median (range) of the rounds' own ratios:")
    print()
    print("| scene | Sheen, with shadows (least median) | cairo replay, no shadows (least median) | Sheen / cairo |"
          " rounds' ratios: median (range) |")
    print("|---|---|---|---|---|")
    over = False
    for k, (p, _) in enumerate(scenes):
        if a.png:
            recordings[k].target.write_to_png(a.png + p.rsplit("/", 1)[-1].replace(".json", ".cairo.png"))
        m = summarise(pairs[k])
        over |= m["ratio"] > a.target
        name = p.rsplit("/", 1)[-1].replace(".json", "")
        print(f"| {name} | {m['sheen']:.2f} ms | {m['cairo']:.2f} ms | {m['ratio']:.2f}x |"
              f" {m['round_median']:.2f}x ({m['round_min']:.2f}-{m['round_max']:.2f}) |")
        sys.stdout.flush()
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
