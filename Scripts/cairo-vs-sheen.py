#!/usr/bin/env python3
"""Warm render time of scene files, Sheen against cairo drawing the same scene without shadows.

For each scene file, cairo (pycairo) draws it once into a cairo.RecordingSurface (backgrounds,
rounded clips, gradients, masks, borders, text with cairo's toy font API, group opacity and
transforms, but no shadows), and each timed frame replays that recording onto a 1920x1080 image
surface: no Python runs per frame but the replay call. Sheen renders the whole scene, shadows
included, with `sheen render SCENE --repeat N` (median of N warm frames, one thread). The two are
run in turn, several times, and the best of each is compared.

usage: cairo-vs-sheen.py SHEEN SCENE.json... [--runs 5] [--repeat 30] [--target 0.5]
Prints a table (Markdown) and exits 1 if any ratio is over the target.
"""
import argparse
import json
import math
import re
import subprocess
import sys
import time

import cairo


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


def cairo_ms(scene, repeat):
    W, H = int(scene["width"]), int(scene["height"])
    rec = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, cairo.Rectangle(0, 0, W, H))
    ctx = cairo.Context(rec)
    for L in scene["layers"]:
        draw_layer(ctx, L)
    del ctx
    target = cairo.ImageSurface(cairo.FORMAT_ARGB32, W, H)
    bg = color(scene.get("background")) or (0, 0, 0, 0)
    out = cairo.Context(target)
    times = []
    for _ in range(repeat + 3):
        t0 = time.perf_counter()
        out.set_operator(cairo.OPERATOR_SOURCE)
        out.set_source_rgba(*bg)
        out.paint()
        out.set_operator(cairo.OPERATOR_OVER)
        out.set_source_surface(rec, 0, 0)
        out.paint()
        target.flush()
        times.append((time.perf_counter() - t0) * 1000)
    times = sorted(times[3:])
    return times[len(times) // 2], target


def sheen_ms(sheen, path, repeat):
    out = subprocess.run([sheen, "render", path, "-o", "/dev/null", "--repeat", str(repeat)],
                         capture_output=True, text=True)
    m = re.search(r"frame_ms median=([0-9.]+)", out.stdout + out.stderr)
    if not m:
        raise SystemExit(f"cairo-vs-sheen: sheen render {path} failed: {out.stderr.strip()}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sheen")
    ap.add_argument("scenes", nargs="+")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--target", type=float, default=0.5)
    ap.add_argument("--png", help="write cairo's picture of each scene next to this prefix")
    a = ap.parse_args()
    print("| scene | Sheen, with shadows (best median) | cairo replay, no shadows (best median) | Sheen / cairo |")
    print("|---|---|---|---|")
    over = False
    for p in a.scenes:
        scene = json.load(open(p))
        best_s = best_c = float("inf")
        for _ in range(a.runs):
            best_s = min(best_s, sheen_ms(a.sheen, p, a.repeat))
            c, surface = cairo_ms(scene, a.repeat)
            best_c = min(best_c, c)
        if a.png:
            surface.write_to_png(a.png + p.rsplit("/", 1)[-1].replace(".json", ".cairo.png"))
        ratio = best_s / best_c
        over |= ratio > a.target
        name = p.rsplit("/", 1)[-1].replace(".json", "")
        print(f"| {name} | {best_s:.2f} ms | {best_c:.2f} ms | {ratio:.2f}x |")
        sys.stdout.flush()
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
