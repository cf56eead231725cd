#!/usr/bin/env python3
"""Renders the image test scenes (Tests/Scenes/images/*.json) with the Skia oracle into
Tests/References/images/, for Tests/SheenLayersTests/ImageOracleTests.swift to compare with.

  python3 Scripts/image-references.py [ORACLE_DIR]   (default ../shared/oracle)

One change to the oracle, where it and SCENE.md disagree: Skia's raster backend drops the
mipmaps of an image drawn with a strict source rectangle (drawImageRect with kStrict samples
`trilinear` as plain bilinear; measured on skia-python 144.1), while SCENE.md's `trilinear` is
bilinear in two mipmap levels, blended. So a part drawn `trilinear` that is the whole image (where
strict and fast read the same pixels) is drawn with kFast, which keeps the mipmaps.
"""
import glob
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
oracle = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(root), "shared", "oracle")
sys.path.insert(0, oracle)
import skia  # noqa: E402
import skia_scene  # noqa: E402

original = skia_scene.draw_image


def draw_image(c, geom, paint):
    img, parts, min_f, mag_f = geom
    m = c.getTotalMatrix()
    rest = []
    for s_, d_ in parts:
        kx = (d_[2] - d_[0]) / (s_[2] - s_[0]) * (m.getScaleX() ** 2 + m.getSkewY() ** 2) ** 0.5
        ky = (d_[3] - d_[1]) / (s_[3] - s_[1]) * (m.getScaleY() ** 2 + m.getSkewX() ** 2) ** 0.5
        f = mag_f if min(kx, ky) >= 1.0 else min_f
        whole = s_ == (0.0, 0.0, float(img.width()), float(img.height()))
        if f == "trilinear" and whole:
            so = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kLinear)
            c.drawImageRect(img.withDefaultMipmaps(), skia.Rect.MakeLTRB(*s_), skia.Rect.MakeLTRB(*d_), so,
                            paint, skia.Canvas.kFast_SrcRectConstraint)
        else:
            rest.append((s_, d_))
    if rest:
        original(c, (img, rest, min_f, mag_f), paint)


skia_scene.draw_image = draw_image
out = os.path.join(root, "Tests", "References", "images")
os.makedirs(out, exist_ok=True)
for scene in sorted(glob.glob(os.path.join(root, "Tests", "Scenes", "images", "*.json"))):
    name = os.path.splitext(os.path.basename(scene))[0]
    skia_scene._IMAGES.clear()  # keyed by id(): ids come back between scenes
    sys.argv = ["skia_scene.py", scene, os.path.join(out, name + ".png")]
    try:
        skia_scene.sc.run_main(skia_scene.build, skia_scene.render_frame, skia_scene.write_png,
                               skia_scene.notes)
    except SystemExit as e:
        if e.code:
            raise
    print("wrote", name)
