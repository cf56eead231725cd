#!/usr/bin/env python3
"""Skia's pictures of the CGContext test cases (Tests/SheenKitTests/CGContextSkiaTests.swift).

Each case below draws with skia-python what the Swift test draws with SheenKit's CGContext,
call for call, in UIKit's coordinates (origin top left, y down, points; scale 2 where a case says
so). The PNGs go to Tests/References/cgcontext/<case>.png; the test requires >= 35 dB PSNR.

Conventions matched here: CG's `addArc(clockwise: true)` in UIKit's flipped space runs with
decreasing angle (negative sweep on screen); a CG shadow of blur b is a Gaussian of sigma b / 2
offset in base space (points times the scale); CG's alpha multiplies the source.

Run: python3 Scripts/skia-cgcontext-references.py   (skia-python)
"""
import math
import os

import skia

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/References/cgcontext")
W, H = 120, 90


def color(r, g, b, a=1.0):
    return skia.Color4f(r, g, b, a).toColor()


def fill(c, mode=None):
    p = skia.Paint(Color=c, AntiAlias=True)
    if mode is not None:
        p.setBlendMode(mode)
    return p


def stroke(c, width, cap=skia.Paint.kButt_Cap, join=skia.Paint.kMiter_Join, miter=10):
    p = skia.Paint(Color=c, AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=width)
    p.setStrokeCap(cap)
    p.setStrokeJoin(join)
    p.setStrokeMiter(miter)
    return p


def arc(path, cx, cy, r, start, end, clockwise):
    # CG's flag in UIKit's flipped space: clockwise=True is decreasing angle.
    sweep = end - start
    if clockwise:
        if sweep > 0:
            sweep = math.fmod(sweep, 2 * math.pi) - 2 * math.pi
        sweep = max(sweep, -2 * math.pi)
    else:
        if sweep < 0:
            sweep = math.fmod(sweep, 2 * math.pi) + 2 * math.pi
        sweep = min(sweep, 2 * math.pi)
    oval = skia.Rect.MakeLTRB(cx - r, cy - r, cx + r, cy + r)
    path.arcTo(oval, math.degrees(start), math.degrees(sweep), False)


def case_fills(c):
    star = skia.Path()
    pts = [(60 + 40 * math.cos(-math.pi / 2 + i * 4 * math.pi / 5), 45 + 40 * math.sin(-math.pi / 2 + i * 4 * math.pi / 5)) for i in range(5)]
    star.moveTo(*pts[0])
    for p in pts[1:]:
        star.lineTo(*p)
    star.close()
    c.drawPath(star, fill(color(0.9, 0.2, 0.2)))
    star2 = skia.Path(star)
    star2.offset(30, 10)
    star2.setFillType(skia.PathFillType.kEvenOdd)
    c.drawPath(star2, fill(color(0.1, 0.3, 0.9, 0.7)))
    c.drawOval(skia.Rect.MakeXYWH(4, 50, 36, 30), fill(color(0.1, 0.7, 0.3)))
    c.drawRect(skia.Rect.MakeXYWH(5.5, 5.25, 20, 14.5), fill(color(0.5, 0.2, 0.6)))


def case_strokes(c):
    for i, (cap, join) in enumerate([(skia.Paint.kButt_Cap, skia.Paint.kMiter_Join),
                                      (skia.Paint.kRound_Cap, skia.Paint.kRound_Join),
                                      (skia.Paint.kSquare_Cap, skia.Paint.kBevel_Join)]):
        p = skia.Path()
        x = 15 + 35 * i
        p.moveTo(x, 75)
        p.lineTo(x + 10, 15)
        p.lineTo(x + 22, 70)
        c.drawPath(p, stroke(color(0.2, 0.2, 0.8), 7, cap, join))
    r = skia.Path()
    r.addRect(skia.Rect.MakeXYWH(8, 8, 104, 74))
    c.drawPath(r, stroke(color(0.8, 0.3, 0.1, 0.8), 1.5))


def case_dashes(c):
    p = skia.Path()
    p.moveTo(10, 20)
    p.lineTo(110, 20)
    s = stroke(color(0, 0, 0), 4)
    s.setPathEffect(skia.DashPathEffect.Make([12, 6], 3))
    c.drawPath(p, s)
    q = skia.Path()
    q.addRect(skia.Rect.MakeXYWH(15, 35, 90, 40))
    s2 = stroke(color(0.1, 0.5, 0.8), 2, skia.Paint.kRound_Cap)
    s2.setPathEffect(skia.DashPathEffect.Make([8, 4, 2, 4], 0))
    c.drawPath(q, s2)


def case_curves(c):
    p = skia.Path()
    p.moveTo(10, 80)
    p.cubicTo(30, 0, 60, 100, 80, 20)
    p.quadTo(100, 0, 110, 40)
    c.drawPath(p, stroke(color(0.7, 0.1, 0.4), 3))
    a = skia.Path()
    a.moveTo(30, 45)
    arc(a, 30, 45, 20, 0, math.pi * 1.25, False)
    a.close()
    c.drawPath(a, fill(color(0.2, 0.6, 0.3, 0.8)))
    b = skia.Path()
    b.moveTo(90, 45)
    arc(b, 90, 45, 18, 0, math.pi * 1.25, True)
    b.close()
    c.drawPath(b, fill(color(0.2, 0.3, 0.8, 0.8)))
    t = skia.Path()
    t.moveTo(40, 85)
    t.arcTo(100, 85, 100, 55, 15)
    t.lineTo(100, 55)
    c.drawPath(t, stroke(color(0, 0, 0), 2))


def case_transforms(c):
    c.save()
    c.translate(60, 45)
    c.rotate(30)
    c.scale(1.5, 0.75)
    c.drawRect(skia.Rect.MakeXYWH(-20, -20, 40, 40), fill(color(0.9, 0.5, 0.1)))
    c.restore()
    c.save()
    c.concat(skia.Matrix.MakeAll(1, 0.3, 5, 0, 1, 10, 0, 0, 1))
    c.drawOval(skia.Rect.MakeXYWH(0, 0, 30, 20), fill(color(0.1, 0.4, 0.9)))
    c.restore()
    c.drawRect(skia.Rect.MakeXYWH(90, 60, 20, 20), fill(color(0.3, 0.3, 0.3)))


def case_clips(c):
    c.save()
    e = skia.Path()
    e.addOval(skia.Rect.MakeXYWH(10, 10, 100, 70))
    c.clipPath(e, skia.ClipOp.kIntersect, True)
    c.clipRect(skia.Rect.MakeXYWH(0, 0, 80, 90), skia.ClipOp.kIntersect, True)
    c.drawRect(skia.Rect.MakeXYWH(0, 0, W, H), fill(color(0.2, 0.5, 0.9)))
    c.restore()
    c.save()
    r = skia.Path()
    r.addRect(skia.Rect.MakeXYWH(70, 20, 40, 50))
    r.addRect(skia.Rect.MakeXYWH(80, 30, 20, 30))
    r.setFillType(skia.PathFillType.kEvenOdd)
    c.clipPath(r, skia.ClipOp.kIntersect, True)
    c.drawRect(skia.Rect.MakeXYWH(0, 0, W, H), fill(color(0.9, 0.3, 0.2, 0.8)))
    c.restore()


def gradient_colors():
    return [color(1, 0.2, 0.2), color(0.2, 0.8, 0.3), color(0.2, 0.3, 1)], [0, 0.4, 1]


def case_linear(c):
    cols, pos = gradient_colors()
    for y0, mode in ((0, skia.TileMode.kDecal), (45, skia.TileMode.kClamp)):
        c.save()
        c.clipRect(skia.Rect.MakeXYWH(0, y0, W, 45))
        sh = skia.GradientShader.MakeLinear([skia.Point(30, y0 + 10), skia.Point(90, y0 + 35)], cols, pos, mode)
        c.drawPaint(skia.Paint(Shader=sh, AntiAlias=True))
        c.restore()


def case_radial(c):
    cols, pos = gradient_colors()
    c.save()
    c.clipRect(skia.Rect.MakeXYWH(0, 0, 60, H))
    sh = skia.GradientShader.MakeTwoPointConical(skia.Point(30, 45), 8, skia.Point(30, 45), 26, cols, pos, skia.TileMode.kDecal)
    c.drawPaint(skia.Paint(Shader=sh, AntiAlias=True))
    c.restore()
    c.save()
    c.clipRect(skia.Rect.MakeXYWH(60, 0, 60, H))
    sh = skia.GradientShader.MakeTwoPointConical(skia.Point(80, 35), 4, skia.Point(92, 50), 24, cols, pos, skia.TileMode.kClamp)
    c.drawPaint(skia.Paint(Shader=sh, AntiAlias=True))
    c.restore()


def case_alpha_blend(c):
    c.drawRect(skia.Rect.MakeXYWH(10, 10, 60, 60), fill(color(0.9, 0.8, 0.1)))
    c.drawOval(skia.Rect.MakeXYWH(40, 25, 60, 50), fill(color(0.2, 0.4, 0.9, 0.5)))
    c.drawRect(skia.Rect.MakeXYWH(20, 40, 80, 30), fill(color(0.9, 0.3, 0.3), skia.BlendMode.kMultiply))
    c.drawRect(skia.Rect.MakeXYWH(80, 5, 30, 30), fill(color(0.5, 0.9, 0.9, 0.6), skia.BlendMode.kScreen))


def case_shadow(c):
    # setShadow(offset: (4, 6), blur: 8) at scale 2: sigma 8, offset (8, 12) pixels.
    p = fill(color(0.95, 0.95, 0.98))
    p.setImageFilter(skia.ImageFilters.DropShadow(8, 12, 8, 8, color(0, 0, 0, 0.5)))
    r = skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(30, 30, 150, 90), 16, 16)
    c.drawRRect(r, p)


def case_layer(c):
    c.drawRect(skia.Rect.MakeXYWH(0, 0, W, H), fill(color(1, 1, 1)))
    c.saveLayerAlpha(None, 128)
    c.drawOval(skia.Rect.MakeXYWH(15, 15, 50, 50), fill(color(0.9, 0.1, 0.1)))
    c.drawOval(skia.Rect.MakeXYWH(45, 25, 50, 50), fill(color(0.1, 0.1, 0.9)))
    c.restore()


def case_clear(c):
    c.drawRect(skia.Rect.MakeXYWH(0, 0, W, H), fill(color(0.3, 0.6, 0.3)))
    c.drawRect(skia.Rect.MakeXYWH(20, 20, 40.5, 30.5), fill(color(0, 0, 0, 0), skia.BlendMode.kClear))


CASES = {"fills": (case_fills, 1), "strokes": (case_strokes, 1), "dashes": (case_dashes, 2),
         "curves": (case_curves, 1), "transforms": (case_transforms, 2), "clips": (case_clips, 1),
         "linear": (case_linear, 1), "radial": (case_radial, 1), "alpha-blend": (case_alpha_blend, 1),
         "shadow": (case_shadow, 1), "layer": (case_layer, 1), "clear": (case_clear, 1)}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, (draw, scale) in CASES.items():
        w, h = (W * scale, H * scale) if name != "shadow" else (220, 160)
        surface = skia.Surface.MakeRaster(skia.ImageInfo.Make(w, h, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType))
        canvas = surface.getCanvas()
        canvas.clear(skia.ColorTRANSPARENT)
        if name != "shadow":
            canvas.scale(scale, scale)
        draw(canvas)
        surface.makeImageSnapshot().save(os.path.join(OUT, name + ".png"), skia.kPNG)
        print("wrote", name)


if __name__ == "__main__":
    main()
